package io.jrxe.tools.soak;

import io.jrxe.verbs.WorkCompletion;

/** One operation, from the requester's work request to what the checker expects of it. */
final class Operation {
    /** Set in a receive WR's id, so that its completion is told from the send's. */
    private static final long RECV_TAG = 1L << 40;

    final long id;
    final Lane lane;
    final OperationKind kind;
    int length;
    int imm;
    boolean inline;
    /** Slots (of the lane's areas) the operation owns while outstanding, or -1. */
    int localSlot = -1;
    int remoteSlot = -1;
    /** The memory window it accesses, binds or invalidates ({@code --with mw}), or null. */
    MemoryWindows.Window window;
    /** The window's key it accesses or invalidates, or the key a bind gives it. */
    int windowKey;
    /** The atomic cell it targets, or -1. */
    int cell = -1;
    /** For an atomic: the cell's value before it, which lands in the requester's buffer. */
    long expectedOriginal;
    /** The message, the bytes read, or an atomic's two operands. */
    byte[] data;
    boolean needsRecv;
    boolean sendDone;
    boolean recvDone;
    boolean failed;
    /** Some completion of it reported its QP's failure (retries exhausted, or flushed after): not a soak failure. */
    boolean expectedFailure;
    /** Its receive completed successfully: the message is all there, though the send may have failed after. */
    boolean recvSucceeded;
    boolean finished;
    /** A UC or UD operation whose send completed waits out {@link SoakConfig#quarantineNanos} before it finishes. */
    boolean quarantined;

    Operation(long id, Lane lane, OperationKind kind) {
        this.id = id;
        this.lane = lane;
        this.kind = kind;
    }

    /** The wr_id of its receive WR. */
    long recvWrId() {
        return id | RECV_TAG;
    }

    /** The operation id a receive WR's id was made from, or -1 when it is not one. */
    static long idOfRecv(long recvWrId) {
        return (recvWrId & RECV_TAG) != 0 ? recvWrId & ~RECV_TAG : -1;
    }

    /**
     * What is wrong with a successful receive completion of its message (opcode, byte_len, immediate,
     * the key a SEND_WITH_INV invalidated), or null.
     * {@code header}: the bytes in front of the message that byte_len counts too (a UD receive's GRH area), else 0.
     */
    String receiveProblem(WorkCompletion wc, int header) {
        boolean withImm = kind.carriesImmediate();
        boolean withInv = kind == OperationKind.MW_INVALIDATE;
        if (wc.opcode() == kind.receiveCompletion() && wc.byteLen() == header + length && wc.hasImmediate() == withImm
                && (!withImm || wc.immData() == imm) && wc.hasInvalidate() == withInv
                && (!withInv || wc.invalidatedRkey() == windowKey)) {
            return null;
        }
        return "receive completion " + wc + ", expected " + kind.receiveCompletion() + " byte_len " + (header + length)
                + (withImm ? String.format(" imm=0x%08x", imm) : " without imm")
                + (withInv ? String.format(" invalidating 0x%08x", windowKey) : "");
    }

    /** The completions it still waits for: its send's, and its receive's if it has one. */
    int missingCompletions() {
        return (sendDone ? 0 : 1) + (needsRecv && !recvDone ? 1 : 0);
    }

    @Override
    public String toString() {
        return id + " (" + lane + ", " + kind + " of " + length + " bytes)";
    }
}
