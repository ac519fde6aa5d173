package io.jrxe.verbs;

/** What a completion completes (libibverbs' enum ibv_wc_opcode, same values). */
public enum WcOpcode {
    /** A SEND (with or without immediate data or invalidate) completed on the send queue. */
    SEND(0),
    /** An RDMA WRITE (with or without immediate data) completed. */
    RDMA_WRITE(1),
    /** An RDMA READ completed: the data is in the local buffer. */
    RDMA_READ(2),
    /** An atomic compare and swap completed. */
    COMP_SWAP(3),
    /** An atomic fetch and add completed. */
    FETCH_ADD(4),
    /** A memory window bind completed. */
    BIND_MW(5),
    /** A local invalidate completed. */
    LOCAL_INV(6),
    /** A FLUSH to persistence or global visibility completed. */
    FLUSH(8),
    /** An atomic 8-byte write completed. */
    ATOMIC_WRITE(9),
    /** Fast registration (REG_MR work request); not in libibverbs' enum, numbered after it. */
    REG_MR(10),
    /** A receive was consumed by an incoming SEND. */
    RECV(128),
    /** A receive was consumed by an incoming RDMA WRITE with immediate data. */
    RECV_RDMA_WITH_IMM(129);

    private final int verbsValue;

    WcOpcode(int verbsValue) {
        this.verbsValue = verbsValue;
    }

    /** The value of libibverbs' enum ibv_wc_opcode. */
    public int verbsValue() {
        return verbsValue;
    }

    /** The opcodes by their libibverbs value (all below 256): a completion's opcode is looked up on every poll. */
    private static final WcOpcode[] BY_VALUE = new WcOpcode[256];

    static {
        for (WcOpcode op : values()) {
            BY_VALUE[op.verbsValue] = op;
        }
    }

    /** The opcode of a libibverbs value; an unknown one is an IllegalArgumentException. */
    public static WcOpcode of(int value) {
        WcOpcode op = value >= 0 && value < BY_VALUE.length ? BY_VALUE[value] : null;
        if (op == null) {
            throw new IllegalArgumentException("unknown completion opcode " + value);
        }
        return op;
    }
}
