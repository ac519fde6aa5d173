package io.jrxe.tools.rcops;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static io.jrxe.tools.rcops.RcOpsData.*;
import static io.jrxe.tools.rcops.RcOpsEndpoint.*;

/**
 * The server's half: it posts the four receives and fills what the client will READ and the atomics' target before
 * it connects, then, when the client is through, checks its receive completions (in order, with byte counts and
 * immediate data) and the bytes the client's SENDs and WRITEs left in its memory.
 */
final class RcOpsServer {
    private final RcOpsEndpoint ep;
    private final PrintWriter out;
    private final MemorySegment buf;
    private final boolean placement;
    private boolean ok = true;

    RcOpsServer(RcOpsEndpoint ep, PrintWriter out, boolean placement) {
        this.ep = ep;
        this.placement = placement;
        this.out = out;
        this.buf = ep.buf;
    }

    void prepare() {
        for (int i = 0; i < READ_BYTES; i++) {
            buf.set(ValueLayout.JAVA_BYTE, READ_AT + i, readPattern(i));
        }
        buf.set(ValueLayout.JAVA_LONG, ATOMIC_AT, ATOMIC_START);
        try {
            ep.postRecv(1, SEND_AT, 4096);
            ep.postRecv(2, SEND_IMM_AT, 4096);
            ep.postRecv(3, WRITE_IMM_RECV_AT, 4096);
            ep.postRecv(4, MULTI_AT, MULTI_RECV_BYTES);
        } catch (VerbsException e) {
            throw new UserError("couldn't post the receives: " + e.getMessage(), e);
        }
    }

    /**
     * Checks everything; {@code clientDone} says whether the client got through all its operations (else the server
     * checks only the receives that completed).
     */
    boolean check(boolean clientDone) {
        if (!clientDone) {
            fail("the client", "did not get through its operations (its output says where it stopped)");
        }
        recv(1, "RECV of the SEND", WcOpcode.RECV, SEND_TEXT.length, false, 0, clientDone,
                () -> firstNotText() < 0 ? null : "byte " + firstNotText() + " differs from what the client sent");
        recv(2, "RECV of the SEND_WITH_IMM", WcOpcode.RECV, SEND_IMM_BYTES, true, SEND_IMM, clientDone,
                () -> bytes(SEND_IMM_AT, SEND_IMM_BYTES, SEND_IMM_FILL));
        if (clientDone) {
            check("RDMA_WRITE's bytes", bytes(WRITE_AT, WRITE_BYTES, WRITE_FILL), WRITE_BYTES + " bytes of 0x5a landed");
        }
        recv(3, "RDMA_WRITE_WITH_IMM", WcOpcode.RECV_RDMA_WITH_IMM, WRITE_IMM_BYTES, true, WRITE_IMM, clientDone,
                () -> bytes(WRITE_IMM_AT, WRITE_IMM_BYTES, WRITE_IMM_FILL));
        if (clientDone) {
            long value = buf.get(ValueLayout.JAVA_LONG, ATOMIC_AT);
            long expected = SWAP + ADD;
            check("the atomics' target", value == expected ? null : "holds " + value + ", expected " + expected,
                    "holds " + expected + " (" + ATOMIC_START + " swapped for " + SWAP + ", plus " + ADD + ")");
        }
        if (clientDone && placement) {
            long value = buf.get(ValueLayout.JAVA_LONG, ATOMIC_WRITE_AT);
            check("ATOMIC_WRITE's target", value == ATOMIC_WRITE_VALUE ? null : String.format("holds 0x%x", value),
                    String.format("holds 0x%x", ATOMIC_WRITE_VALUE));
            check("the FLUSHed WRITE's bytes", bytes(FLUSHED_AT, FLUSHED_BYTES, FLUSHED_FILL),
                    FLUSHED_BYTES + " bytes of 0x3c landed");
        }
        recv(4, "RECV of several packets", WcOpcode.RECV, MULTI_BYTES, false, 0, clientDone, () -> {
            int bad = firstNotPattern(buf, MULTI_AT, MULTI_BYTES, RcOpsData::multiPattern);
            return bad < 0 ? null : "byte " + bad + " differs from what the client sent";
        });
        WorkCompletion extra = ep.poll();
        if (extra != null) {
            fail("the CQ", "holds a completion nobody asked for: " + extra);
        }
        out.flush();
        return ok;
    }

    private interface DataCheck {
        String problem();
    }

    private void recv(long wrId, String name, WcOpcode opcode, int byteLen, boolean imm, int immData, boolean mustBeThere,
                      DataCheck data) {
        WorkCompletion wc = mustBeThere ? ep.next() : ep.poll();
        if (wc == null) {
            return;
        }
        String problem = completionProblem(wc, wrId, opcode);
        if (problem == null && wc.byteLen() != byteLen) {
            problem = "byte_len " + wc.byteLen() + ", expected " + byteLen;
        }
        if (problem == null && (wc.hasImmediate() != imm || (imm && wc.immData() != immData))) {
            problem = imm ? String.format("immediate data %s, expected 0x%08x", wc.hasImmediate()
                    ? String.format("0x%08x", wc.immData()) : "missing", immData) : "immediate data where none was sent";
        }
        if (problem == null) {
            problem = data.problem();
        }
        check(name, problem, byteLen + " bytes" + (imm ? String.format(", immediate data 0x%08x", immData) : "")
                + ", all as sent");
    }

    private int firstNotText() {
        for (int i = 0; i < SEND_TEXT.length; i++) {
            if (buf.get(ValueLayout.JAVA_BYTE, SEND_AT + i) != SEND_TEXT[i]) {
                return i;
            }
        }
        return -1;
    }

    /** The bytes are all {@code fill} and the byte after them is untouched (the client wrote no further). */
    private String bytes(int offset, int n, byte fill) {
        int bad = firstNot(buf, offset, n, fill);
        if (bad >= 0) {
            return "byte " + bad + " is 0x" + Integer.toHexString(buf.get(ValueLayout.JAVA_BYTE, offset + bad) & 0xFF);
        }
        return buf.get(ValueLayout.JAVA_BYTE, offset + n) == 0 ? null : "the byte after the " + n + " was written too";
    }

    private void check(String name, String problem, String good) {
        String label = String.format("%-28s", name);
        if (problem == null) {
            out.println("ok    " + label + good);
        } else {
            fail(name, problem);
        }
    }

    private void fail(String name, String problem) {
        ok = false;
        out.println("FAIL  " + String.format("%-28s", name) + problem);
    }
}
