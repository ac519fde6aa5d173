package io.jrxe.tools.rcops;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/** What the client sends, writes and reads, and what the server holds: both sides know it, so both can check it. */
final class RcOpsData {
    static final byte[] SEND_TEXT = "jrxe rc-ops: a SEND of 32 bytes.".getBytes(StandardCharsets.US_ASCII);
    static final int SEND_IMM_BYTES = 16;
    static final byte SEND_IMM_FILL = 0x11;
    static final int SEND_IMM = 0x1234_5678;
    static final int WRITE_BYTES = 64;
    static final byte WRITE_FILL = 0x5a;
    static final int WRITE_IMM_BYTES = 32;
    static final byte WRITE_IMM_FILL = (byte) 0xa5;
    static final int WRITE_IMM = 0x0bad_cafe;
    /** Three packets at a path MTU of 1024. */
    static final int READ_BYTES = 3000;
    static final long ATOMIC_START = 10;
    static final long SWAP = 110;
    static final long ADD = 1;
    /** Five packets at a path MTU of 1024. */
    static final int MULTI_BYTES = 5000;
    /** What ATOMIC_WRITE puts in place, 8 bytes at once (--placement). */
    static final long ATOMIC_WRITE_VALUE = 0x1122_3344_5566_7788L;
    /** The WRITE that a FLUSH then makes globally visible: two packets at a path MTU of 1024 (--placement). */
    static final int FLUSHED_BYTES = 2048;
    static final byte FLUSHED_FILL = 0x3c;

    private RcOpsData() {
    }

    /** What is wrong with a completion's status, wr_id and opcode, or null. */
    static String completionProblem(io.jrxe.verbs.WorkCompletion wc, long wrId, io.jrxe.verbs.WcOpcode opcode) {
        if (wc.status() != io.jrxe.verbs.WcStatus.SUCCESS) {
            return "completion status " + wc.status();
        }
        if (wc.wrId() != wrId) {
            return "completion of wr_id " + wc.wrId() + ", expected " + wrId;
        }
        return wc.opcode() == opcode ? null : "completion opcode " + wc.opcode() + ", expected " + opcode;
    }

    static byte readPattern(int i) {
        return (byte) (i * 13 + 1);
    }

    static byte multiPattern(int i) {
        return (byte) (i * 7 + 3);
    }

    /** The index of the first byte of {@code seg[offset, offset+n)} that is not {@code fill}, or -1. */
    static int firstNot(MemorySegment seg, long offset, int n, byte fill) {
        for (int i = 0; i < n; i++) {
            if (seg.get(ValueLayout.JAVA_BYTE, offset + i) != fill) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the first byte that differs from the pattern, or -1. */
    static int firstNotPattern(MemorySegment seg, long offset, int n, java.util.function.IntFunction<Byte> pattern) {
        for (int i = 0; i < n; i++) {
            if (seg.get(ValueLayout.JAVA_BYTE, offset + i) != pattern.apply(i)) {
                return i;
            }
        }
        return -1;
    }
}
