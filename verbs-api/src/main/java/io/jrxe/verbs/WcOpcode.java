package io.jrxe.verbs;

/** What a completion completes (libibverbs' enum ibv_wc_opcode, same values). */
public enum WcOpcode {
    SEND(0),
    RDMA_WRITE(1),
    RDMA_READ(2),
    COMP_SWAP(3),
    FETCH_ADD(4),
    BIND_MW(5),
    LOCAL_INV(6),
    FLUSH(8),
    ATOMIC_WRITE(9),
    /** Fast registration (REG_MR work request); not in libibverbs' enum, numbered after it. */
    REG_MR(10),
    RECV(128),
    RECV_RDMA_WITH_IMM(129);

    private final int verbsValue;

    WcOpcode(int verbsValue) {
        this.verbsValue = verbsValue;
    }

    public int verbsValue() {
        return verbsValue;
    }

    private static final WcOpcode[] VALUES = values();

    public static WcOpcode of(int value) {
        for (WcOpcode op : VALUES) {
            if (op.verbsValue == value) {
                return op;
            }
        }
        throw new IllegalArgumentException("unknown completion opcode " + value);
    }
}
