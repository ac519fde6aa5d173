package io.jrxe.tools.rcops;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.jrxe.tools.rcops.RcOpsData.*;
import static io.jrxe.tools.rcops.RcOpsEndpoint.*;

/**
 * The client's half: one operation at a time, each waited for and checked (status, opcode, byte count; the data a
 * READ brought, the old value an atomic returned). The first failure ends the run, since an RC QP that saw an
 * error is in the error state.
 */
final class RcOpsClient {
    private final RcOpsEndpoint ep;
    private final RcOpsDest peer;
    private final PrintWriter out;
    private final MemorySegment buf;
    private final boolean placement;

    RcOpsClient(RcOpsEndpoint ep, RcOpsDest peer, PrintWriter out, boolean placement) {
        this.ep = ep;
        this.placement = placement;
        this.peer = peer;
        this.out = out;
        this.buf = ep.buf;
    }

    boolean run() {
        fillSources();
        try {
            return step(1, "SEND", WrOpcode.SEND, SEND_AT, SEND_TEXT.length, 0, WcOpcode.SEND, null)
                    && step(2, "SEND_WITH_IMM", WrOpcode.SEND_WITH_IMM, SEND_IMM_AT, SEND_IMM_BYTES, 0, WcOpcode.SEND, null)
                    && step(3, "RDMA_WRITE", WrOpcode.RDMA_WRITE, WRITE_AT, WRITE_BYTES, WRITE_AT, WcOpcode.RDMA_WRITE, null)
                    && step(4, "RDMA_WRITE_WITH_IMM", WrOpcode.RDMA_WRITE_WITH_IMM, WRITE_IMM_AT, WRITE_IMM_BYTES,
                            WRITE_IMM_AT, WcOpcode.RDMA_WRITE, null)
                    && step(5, "RDMA_READ", WrOpcode.RDMA_READ, READ_AT, READ_BYTES, READ_AT, WcOpcode.RDMA_READ,
                            () -> readCheck())
                    && step(6, "ATOMIC_CMP_AND_SWP", WrOpcode.ATOMIC_CMP_AND_SWP, CAS_RESULT_AT, 8, ATOMIC_AT,
                            WcOpcode.COMP_SWAP, () -> oldValue(CAS_RESULT_AT, ATOMIC_START))
                    && step(7, "ATOMIC_FETCH_AND_ADD", WrOpcode.ATOMIC_FETCH_AND_ADD, FAA_RESULT_AT, 8, ATOMIC_AT,
                            WcOpcode.FETCH_ADD, () -> oldValue(FAA_RESULT_AT, SWAP))
                    && step(8, "SEND of several packets", WrOpcode.SEND, MULTI_AT, MULTI_BYTES, 0, WcOpcode.SEND, null)
                    && (!placement || step(9, "ATOMIC_WRITE", WrOpcode.ATOMIC_WRITE, ATOMIC_WRITE_AT, 8, ATOMIC_WRITE_AT,
                            WcOpcode.ATOMIC_WRITE, null) && writeThenFlush(10));
        } finally {
            out.flush();
        }
    }

    private void fillSources() {
        MemorySegment.copy(SEND_TEXT, 0, buf, ValueLayout.JAVA_BYTE, SEND_AT, SEND_TEXT.length);
        buf.asSlice(SEND_IMM_AT, SEND_IMM_BYTES).fill(SEND_IMM_FILL);
        buf.asSlice(WRITE_AT, WRITE_BYTES).fill(WRITE_FILL);
        buf.asSlice(WRITE_IMM_AT, WRITE_IMM_BYTES).fill(WRITE_IMM_FILL);
        buf.asSlice(READ_AT, READ_BYTES).fill((byte) 0);
        buf.set(ValueLayout.JAVA_LONG, CAS_RESULT_AT, -1L);
        buf.set(ValueLayout.JAVA_LONG, FAA_RESULT_AT, -1L);
        buf.set(ValueLayout.JAVA_LONG, ATOMIC_WRITE_AT, ATOMIC_WRITE_VALUE);
        buf.asSlice(FLUSHED_AT, FLUSHED_BYTES).fill(FLUSHED_FILL);
        for (int i = 0; i < MULTI_BYTES; i++) {
            buf.set(ValueLayout.JAVA_BYTE, MULTI_AT + i, multiPattern(i));
        }
    }

    /** What a step checks after its completion: null when right, else what is wrong. */
    private interface AfterCheck {
        String problem();
    }

    private boolean step(int n, String name, WrOpcode opcode, int offset, int length, int remoteOffset,
                         WcOpcode expected, AfterCheck after) {
        SendWr wr = ep.wr(n, opcode, offset, length, peer, remoteOffset);
        wr.immData = opcode == WrOpcode.SEND_WITH_IMM ? SEND_IMM : WRITE_IMM;
        if (opcode == WrOpcode.ATOMIC_CMP_AND_SWP) {
            wr.compareAdd = ATOMIC_START;
            wr.swap = SWAP;
        } else if (opcode == WrOpcode.ATOMIC_FETCH_AND_ADD) {
            wr.compareAdd = ADD;
        }
        String label = String.format("%d. %-24s", n, name);
        try {
            ep.qp.postSend(wr);
        } catch (VerbsException e) {
            out.println("FAIL  " + label + " post_send refused: " + e.getMessage());
            return false;
        }
        WorkCompletion wc = ep.next();
        String problem = completionProblem(wc, n, expected);
        boolean countsBytes = opcode == WrOpcode.RDMA_READ || opcode == WrOpcode.ATOMIC_CMP_AND_SWP || opcode == WrOpcode.ATOMIC_FETCH_AND_ADD;
        if (problem == null && countsBytes && wc.byteLen() != length) {
            problem = "completion byte_len " + wc.byteLen() + ", expected " + length;
        }
        if (problem == null && after != null) {
            problem = after.problem();
        }
        if (problem != null) {
            out.println("FAIL  " + label + problem);
            return false;
        }
        out.println("ok    " + label + describe(opcode, length));
        out.flush();
        return true;
    }

    /**
     * An RDMA_WRITE and a FLUSH of the range it wrote, posted as one chain: the way a program makes
     * its data visible at the responder (persistent, where the memory is) before it says so.
     */
    private boolean writeThenFlush(int n) {
        SendWr write = ep.wr(n, WrOpcode.RDMA_WRITE, FLUSHED_AT, FLUSHED_BYTES, peer, FLUSHED_AT);
        SendWr flush = ep.wr(n + 1, WrOpcode.FLUSH, FLUSHED_AT, FLUSHED_BYTES, peer, FLUSHED_AT);
        String label = String.format("%d. %-24s", n, "RDMA_WRITE, then FLUSH");
        try {
            ep.qp.postSend(write.next(flush));
        } catch (VerbsException e) {
            out.println("FAIL  " + label + " post_send refused: " + e.getMessage());
            return false;
        }
        String problem = completionProblem(ep.next(), n, WcOpcode.RDMA_WRITE);
        if (problem == null) {
            problem = completionProblem(ep.next(), n + 1, WcOpcode.FLUSH);
        }
        out.println(problem == null ? "ok    " + label + FLUSHED_BYTES + " bytes written, then flushed to global visibility"
                : "FAIL  " + label + problem);
        out.flush();
        return problem == null;
    }

    private String describe(WrOpcode opcode, int length) {
        return switch (opcode) {
            case RDMA_READ -> length + " bytes read, all as the server wrote them";
            case ATOMIC_CMP_AND_SWP -> "old value " + ATOMIC_START + " came back (swapped for " + SWAP + ")";
            case ATOMIC_FETCH_AND_ADD -> "old value " + SWAP + " came back (added " + ADD + ")";
            case SEND_WITH_IMM, RDMA_WRITE_WITH_IMM -> length + " bytes with immediate data, completed";
            case ATOMIC_WRITE -> String.format("0x%x put in place at once", ATOMIC_WRITE_VALUE);
            default -> length + " bytes, completed";
        };
    }

    private String readCheck() {
        int bad = firstNotPattern(buf, READ_AT, READ_BYTES, RcOpsData::readPattern);
        return bad < 0 ? null : "byte " + bad + " of the READ is 0x" + Integer.toHexString(buf.get(ValueLayout.JAVA_BYTE,
                READ_AT + bad) & 0xFF) + ", the server holds 0x" + Integer.toHexString(readPattern(bad) & 0xFF);
    }

    private String oldValue(int at, long expected) {
        long got = buf.get(ValueLayout.JAVA_LONG, at);
        return got == expected ? null : "old value " + got + ", expected " + expected;
    }
}
