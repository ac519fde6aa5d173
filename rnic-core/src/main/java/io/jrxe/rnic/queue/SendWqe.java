package io.jrxe.rnic.queue;

import io.jrxe.verbs.ScatterGatherList;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;

/**
 * A send work queue entry (what post_send writes for one ibv_send_wr): the operation, its flags,
 * the local scatter/gather list or inline bytes, and the remote side (address and R_Key, atomic
 * operands, or for UD the address handle, QPN and Q_Key). Made once, when its queue first needs it, and rewritten
 * for every work request; the requester reads it in place.
 */
public final class SendWqe {
    // The work request's fields, most of them as SendWr names them, copied in at post time (copyFrom). They
    // are plain fields of the WQE on purpose, not a SendWr held inside it: the requester reads them per packet
    // (remoteAddr, rkey, ...), and a SendWr in between would cost a load of that object for every such read.
    // flags holds the work request's send_flags bits, as SendWr defines them (SendWr.SIGNALED, ...).
    public long wrId;
    public WrOpcode opcode = WrOpcode.SEND;
    /** The opcode's entry in the work-request opcode table. */
    public WrOpcodeInfo info = WrOpcodeInfo.of(WrOpcode.SEND);
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
    /** BIND_MW and REG_MR: what to bind or register; null until such a request is first posted in this slot. */
    public MemoryBindRequest bind;

    // The requester's and completer's progress through this WQE (engine state, NIC thread only).
    public WqeState state = WqeState.POSTED;
    public int firstPsn;
    public int lastPsn;
    /** Where a READ's responses (re)start: its first PSN, or the PSN it was resumed from. */
    public int responseStartPsn;
    /** Bytes of the message already put in packets. */
    public long sentBytes;
    /** The requester counted this READ or atomic as outstanding when it started it (the completer retires it). */
    public boolean readAtomicCounted;
    /** Completion status decided early (local operations, send-side errors), or null. */
    public WcStatus earlyStatus;
    public int vendorErr;

    /** The inline area of every WQE of a queue that allows none: nothing is ever copied into it. */
    private static final byte[] NO_INLINE = new byte[0];

    public SendWqe(int maxSge, int maxInline) {
        sgl = new ScatterGatherList(maxSge);
        inline = maxInline == 0 ? NO_INLINE : new byte[maxInline];
    }

    /** Copies a work request in (post_send); the caller has validated it. */
    public void copyFrom(SendWr wr) {
        wrId = wr.wrId;
        opcode = wr.opcode;
        info = WrOpcodeInfo.of(wr.opcode);
        flags = wr.flags;
        if ((wr.flags & SendWr.INLINE) != 0) {
            inlineLength = wr.inlineLength;
            System.arraycopy(wr.inlineData, 0, inline, 0, wr.inlineLength);
            sgl.clear();
        } else {
            inlineLength = 0;
            sgl.copyFrom(wr.sgl);
        }
        immOrInvalidate = wr.opcode == WrOpcode.SEND_WITH_INV || wr.opcode == WrOpcode.LOCAL_INV ? wr.invalidateRkey : wr.immData;
        remoteAddr = wr.remoteAddr;
        rkey = wr.rkey;
        compareAdd = wr.compareAdd;
        swap = wr.swap;
        ahHandle = wr.ahHandle;
        remoteQpn = wr.remoteQpn;
        remoteQkey = wr.remoteQkey;
        if (wr.opcode == WrOpcode.BIND_MW || wr.opcode == WrOpcode.REG_MR) {
            if (bind == null) {
                bind = new MemoryBindRequest();
            }
            bind.copyFrom(wr);
        }
        state = WqeState.POSTED;
        firstPsn = 0;
        lastPsn = 0;
        sentBytes = 0;
        readAtomicCounted = false;
        earlyStatus = null;
        vendorErr = 0;
    }

    /** Done early, with this status: a local operation, or a send-side error. */
    public void finish(WcStatus status, int vendorError) {
        state = WqeState.DONE;
        earlyStatus = status;
        vendorErr = vendorError;
    }

    public boolean signaled() {
        return (flags & SendWr.SIGNALED) != 0;
    }

    /** Bytes the work request moves from local memory: inline bytes or the SGL's total. */
    public long length() {
        return (flags & SendWr.INLINE) != 0 ? inlineLength : sgl.totalLength();
    }
}
