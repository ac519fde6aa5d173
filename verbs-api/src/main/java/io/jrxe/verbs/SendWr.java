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

    public long wrId;
    public WrOpcode opcode = WrOpcode.SEND;
    public int flags;
    public final ScatterGatherList sgl;
    /** Inline data (with the INLINE flag): bytes copied into the WQE at post time. */
    public byte[] inlineData;
    public int inlineLength;
    public int immData;
    public int invalidateRkey;
    public long remoteAddr;
    public int rkey;
    public long compareAdd;
    public long swap;
    /** UD destination. */
    public int ahHandle;
    public int remoteQpn;
    public int remoteQkey;
    /** BIND_MW / REG_MR. */
    public int mwRkey;
    public int newRkey;
    public int mrLkey;
    public long bindAddr;
    public long bindLength;
    public int bindAccess;
    private SendWr next;

    public SendWr(int maxSge) {
        sgl = new ScatterGatherList(maxSge);
    }

    public SendWr next() {
        return next;
    }

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
