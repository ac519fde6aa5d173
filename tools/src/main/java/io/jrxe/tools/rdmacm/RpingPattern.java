package io.jrxe.tools.rdmacm;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

/**
 * The text rping's client puts in its start buffer before each ping, and the C-string view of a buffer that
 * rping prints. Ping N's buffer is "rdma-ping-N: " followed by letters that run from 'A' up to 'z' and wrap back
 * to 'A', starting one further each ping (ping 0 at 'A', ping 1 at 'B', ... ping 58 at 'A' again); its last byte
 * is 0, so that the server can print it and WRITE it back (strlen + 1 bytes).
 */
final class RpingPattern {
    private static final int FIRST = 'A';
    private static final int LAST = 'z';

    private RpingPattern() {
    }

    /** Fills {@code buffer} (all of it) with ping {@code ping}'s text. */
    static void fill(MemorySegment buffer, int ping) {
        int size = (int) buffer.byteSize();
        byte[] head = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int prefix = Math.min(head.length, size - 1); // snprintf keeps room for its terminating 0
        MemorySegment.copy(head, 0, buffer, java.lang.foreign.ValueLayout.JAVA_BYTE, 0, prefix);
        int c = FIRST + ping % (LAST - FIRST + 1);
        for (int i = prefix; i < size; i++) {
            buffer.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buffer.set(java.lang.foreign.ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
    }

    /** The bytes of {@code buffer} up to its first 0 (or all of them), as printf's %s prints them. */
    static String cString(MemorySegment buffer) {
        return new String(cBytes(buffer), StandardCharsets.ISO_8859_1);
    }

    /** strlen(buffer): the bytes before the first 0, at most the buffer's length. */
    static int strlen(MemorySegment buffer) {
        long size = buffer.byteSize();
        for (int i = 0; i < size; i++) {
            if (buffer.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) == 0) {
                return i;
            }
        }
        return (int) size;
    }

    private static byte[] cBytes(MemorySegment buffer) {
        return buffer.asSlice(0, strlen(buffer)).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
    }
}
