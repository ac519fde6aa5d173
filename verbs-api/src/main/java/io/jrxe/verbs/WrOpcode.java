package io.jrxe.verbs;

/** Work request opcodes (libibverbs' enum ibv_wr_opcode, same values; REG_MR is jrxe's, after them). */
public enum WrOpcode {
    /** Writes local bytes into the peer memory at remoteAddr, under rkey. */
    RDMA_WRITE(0, WcOpcode.RDMA_WRITE),
    /** An RDMA WRITE that also consumes a receive at the peer, carrying immData. */
    RDMA_WRITE_WITH_IMM(1, WcOpcode.RDMA_WRITE),
    /** Sends the bytes into the next receive buffer the peer posted. */
    SEND(2, WcOpcode.SEND),
    /** A SEND whose receive completion also carries immData. */
    SEND_WITH_IMM(3, WcOpcode.SEND),
    /** Reads the peer memory at remoteAddr, under rkey, into the local buffer. */
    RDMA_READ(4, WcOpcode.RDMA_READ),
    /** Compares the 8 bytes at remoteAddr with compareAdd and, when equal, writes swap; returns the old value. */
    ATOMIC_CMP_AND_SWP(5, WcOpcode.COMP_SWAP),
    /** Adds compareAdd to the 8 bytes at remoteAddr; returns the old value. */
    ATOMIC_FETCH_AND_ADD(6, WcOpcode.FETCH_ADD),
    /** Invalidates the local key invalidateRkey. */
    LOCAL_INV(7, WcOpcode.LOCAL_INV),
    /** Binds the type 2 window mwRkey to a range of the region mrLkey, under newRkey. */
    BIND_MW(8, WcOpcode.BIND_MW),
    /** A SEND that also invalidates the R_Key invalidateRkey at the peer. */
    SEND_WITH_INV(9, WcOpcode.SEND),
    /** Makes earlier writes to the range at remoteAddr persistent or globally visible. */
    FLUSH(14, WcOpcode.FLUSH),
    /** Writes 8 bytes at remoteAddr as one atomic operation. */
    ATOMIC_WRITE(15, WcOpcode.ATOMIC_WRITE),
    /**
     * Fast registration: gives the region mrLkey a new key, range and access (jrxe's, numbered after
     * libibverbs').
     */
    REG_MR(32, WcOpcode.REG_MR);

    private final int verbsValue;
    private final WcOpcode completion;

    WrOpcode(int verbsValue, WcOpcode completion) {
        this.verbsValue = verbsValue;
        this.completion = completion;
    }

    /** The value of libibverbs' enum ibv_wr_opcode (REG_MR: jrxe's own). */
    public int verbsValue() {
        return verbsValue;
    }

    /** The opcode of this work request's completion. */
    public WcOpcode completion() {
        return completion;
    }
}
