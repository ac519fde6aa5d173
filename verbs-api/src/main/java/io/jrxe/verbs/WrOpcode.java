package io.jrxe.verbs;

/** Work request opcodes (libibverbs' enum ibv_wr_opcode, same values; REG_MR is jrxe's, after them). */
public enum WrOpcode {
    RDMA_WRITE(0, WcOpcode.RDMA_WRITE),
    RDMA_WRITE_WITH_IMM(1, WcOpcode.RDMA_WRITE),
    SEND(2, WcOpcode.SEND),
    SEND_WITH_IMM(3, WcOpcode.SEND),
    RDMA_READ(4, WcOpcode.RDMA_READ),
    ATOMIC_CMP_AND_SWP(5, WcOpcode.COMP_SWAP),
    ATOMIC_FETCH_AND_ADD(6, WcOpcode.FETCH_ADD),
    LOCAL_INV(7, WcOpcode.LOCAL_INV),
    BIND_MW(8, WcOpcode.BIND_MW),
    SEND_WITH_INV(9, WcOpcode.SEND),
    FLUSH(14, WcOpcode.FLUSH),
    ATOMIC_WRITE(15, WcOpcode.ATOMIC_WRITE),
    REG_MR(32, WcOpcode.REG_MR);

    private final int verbsValue;
    private final WcOpcode completion;

    WrOpcode(int verbsValue, WcOpcode completion) {
        this.verbsValue = verbsValue;
        this.completion = completion;
    }

    public int verbsValue() {
        return verbsValue;
    }

    /** The opcode of this work request's completion. */
    public WcOpcode completion() {
        return completion;
    }
}
