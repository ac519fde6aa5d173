package io.jrxe.verbs;

/**
 * A send work request as the application fills it (ibv_send_wr). Reusable: set the fields,
 * post, and fill it again for the next one; post_send copies it into the send queue. Chain
 * several with {@link #next(SendWr)} to post them in one call.
 */
public final class SendWr {
    /** send_flags bit (IBV_SEND_FENCE): wait for earlier READs and atomics of this QP to complete first. */
    public static final int FENCE = 1;
    /** send_flags bit (IBV_SEND_SIGNALED): this work request gets a completion even when the QP's sqSigAll is off. */
    public static final int SIGNALED = 1 << 1;
    /** send_flags bit (IBV_SEND_SOLICITED): the receiver's CQ wakes a solicited-only waiter for this message. */
    public static final int SOLICITED = 1 << 2;
    /** send_flags bit (IBV_SEND_INLINE): the bytes are {@link #inlineData}, copied at post time; no L_Key is used. */
    public static final int INLINE = 1 << 3;

    /** The caller's identifier, returned in the completion. */
    public long wrId;
    /** What to do; SEND unless set. */
    public WrOpcode opcode = WrOpcode.SEND;
    /** send_flags: {@link #SIGNALED}, {@link #FENCE}, {@link #SOLICITED}, {@link #INLINE}, or-ed. */
    public int flags;
    /** The local memory the operation reads (or, for READ and atomics, writes). */
    public final ScatterGatherList sgl;
    /** Inline data (with the INLINE flag): bytes copied into the WQE at post time. */
    public byte[] inlineData;
    /** How many bytes of {@link #inlineData} to send. */
    public int inlineLength;
    /**
     * Immediate data for SEND_WITH_IMM and RDMA_WRITE_WITH_IMM, as a number: its four bytes travel big-endian (network
     * order), so the receiver's {@link WorkCompletion#immData()} is the same number, and a C peer reads it from
     * libibverbs' imm_data (a __be32) with ntohl; a C sender of htonl(x) delivers x.
     */
    public int immData;
    /** The key SEND_WITH_INV and LOCAL_INV invalidate. */
    public int invalidateRkey;
    /** RDMA and atomic operations: the peer address (an iova of its region or window). */
    public long remoteAddr;
    /** RDMA and atomic operations: the R_Key of the peer memory. */
    public int rkey;
    /** Atomics: the value to compare (compare and swap) or to add (fetch and add). */
    public long compareAdd;
    /** Compare and swap: the value written when the comparison holds. */
    public long swap;
    /** UD: the address handle of the destination ({@link Ah#handle()}). */
    public int ahHandle;
    /** UD: the destination QP number. */
    public int remoteQpn;
    /** UD: the Q_Key the destination QP expects. */
    public int remoteQkey;
    /** BIND_MW: the current R_Key of the window to bind. */
    public int mwRkey;
    /** BIND_MW and REG_MR: the key the window or region gets. */
    public int newRkey;
    /** BIND_MW: the region the window is bound to; REG_MR: the region to register. */
    public int mrLkey;
    /** BIND_MW and REG_MR: the start of the range. */
    public long bindAddr;
    /** BIND_MW and REG_MR: the length of the range. */
    public long bindLength;
    /** BIND_MW and REG_MR: the access bits ({@link Access}) of the range. */
    public int bindAccess;
    private SendWr next;

    /** A send work request with room for {@code maxSge} scatter/gather entries. */
    public SendWr(int maxSge) {
        sgl = new ScatterGatherList(maxSge);
    }

    /** The next work request of the chain, or null. */
    public SendWr next() {
        return next;
    }

    /** Chains {@code n} after this work request, to post both in one call; returns this. */
    public SendWr next(SendWr n) {
        next = n;
        return this;
    }

    /** Resets the fields so that a reused object carries nothing from its last use. */
    public SendWr clear() {
        wrId = 0;
        opcode = WrOpcode.SEND;
        flags = 0;
        sgl.clear();
        inlineData = null;
        inlineLength = 0;
        immData = 0;
        invalidateRkey = 0;
        remoteAddr = 0;
        rkey = 0;
        compareAdd = 0;
        swap = 0;
        ahHandle = 0;
        remoteQpn = 0;
        remoteQkey = 0;
        mwRkey = 0;
        newRkey = 0;
        mrLkey = 0;
        bindAddr = 0;
        bindLength = 0;
        bindAccess = 0;
        next = null;
        return this;
    }
}
