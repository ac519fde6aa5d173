package io.jrxe.rnic.queue;

/**
 * A send work queue entry (what post_send writes for one ibv_send_wr): the operation, its flags,
 * the local scatter/gather list or inline bytes, and the remote side (address and R_Key, atomic
 * operands, or for UD the address handle, QPN and Q_Key). Preallocated per slot and rewritten
 * for every work request; the requester reads it in place.
 */
public final class SendWqe {
    /** send_flags bits (ibv_send_flags). */
    public static final int FENCE = 1;
    public static final int SIGNALED = 1 << 1;
    public static final int SOLICITED = 1 << 2;
    public static final int INLINE = 1 << 3;

    public long wrId;
    public WrOpcode opcode = WrOpcode.SEND;
    public int flags;
    public final ScatterGatherList sgl;
    public final byte[] inline;
    public int inlineLength;
    /** Immediate data, or the R_Key to invalidate for SEND_WITH_INV and LOCAL_INV. */
    public int immOrInvalidate;
    public long remoteAddr;
    public int rkey;
    public long compareAdd;
    public long swap;
    /** UD: the destination. */
    public int ahHandle;
    public int remoteQpn;
    public int remoteQkey;
    /** BIND_MW: window key, new key, MR key, range and access; REG_MR: MR key, iova, length, access. */
    public int mwKey;
    public int newKey;
    public int mrKey;
    public long bindAddr;
    public long bindLength;
    public int bindAccess;

    public SendWqe(int maxSge, int maxInline) {
        sgl = new ScatterGatherList(maxSge);
        inline = new byte[maxInline];
    }

    public boolean signaled() {
        return (flags & SIGNALED) != 0;
    }

    /** Bytes the work request moves from local memory: inline bytes or the SGL's total. */
    public long length() {
        return (flags & INLINE) != 0 ? inlineLength : sgl.totalLength();
    }
}
