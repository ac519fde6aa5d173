package io.jrxe.verbs.sim;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Work request builders and byte checks shared by the data-path tests. */
final class Ops {
    static final long US = 1_000L;
    static final long MS = 1_000_000L;
    static final long SECOND = 1_000_000_000L;

    private Ops() {
    }

    /** A signaled work request with one SGE over the side's own MR. */
    static SendWr wr(SimPair.Side s, WrOpcode op, long localOff, int len) {
        SendWr wr = new SendWr(4);
        wr.opcode = op;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(s.memory.address() + localOff, len, s.mr.lkey());
        return wr;
    }

    /** A signaled RDMA (WRITE, READ, atomic, FLUSH) aimed at the remote side's MR at remoteOff. */
    static SendWr rdma(SimPair.Side s, WrOpcode op, long localOff, int len, SimPair.Side remote, long remoteOff) {
        SendWr wr = wr(s, op, localOff, len);
        wr.remoteAddr = remote.memory.address() + remoteOff;
        wr.rkey = remote.mr.rkey();
        return wr;
    }

    static RecvWr recv(SimPair.Side s, long off, int len, long id) {
        RecvWr r = new RecvWr(4);
        r.wrId = id;
        r.sgl.add(s.memory.address() + off, len, s.mr.lkey());
        return r;
    }

    /** Links the work requests in this order and returns the first. */
    static SendWr chain(SendWr... wrs) {
        for (int i = 0; i + 1 < wrs.length; i++) {
            wrs[i].next(wrs[i + 1]);
        }
        return wrs[0];
    }

    static RecvWr chain(RecvWr... wrs) {
        for (int i = 0; i + 1 < wrs.length; i++) {
            wrs[i].next(wrs[i + 1]);
        }
        return wrs[0];
    }

    static SendWr id(SendWr wr, long id) {
        wr.wrId = id;
        return wr;
    }

    /** Fills len bytes with a seeded pattern, 8 bytes at a time (fast enough for 8 MiB). */
    static void fill(MemorySegment m, long off, long len, long seed) {
        Random r = new Random(seed);
        long i = 0;
        for (; i + 8 <= len; i += 8) {
            m.set(ValueLayout.JAVA_LONG_UNALIGNED, off + i, r.nextLong());
        }
        for (; i < len; i++) {
            m.set(ValueLayout.JAVA_BYTE, off + i, (byte) r.nextInt());
        }
    }

    static void zero(MemorySegment m, long off, long len) {
        m.asSlice(off, len).fill((byte) 0);
    }

    /** Asserts two ranges hold the same bytes, naming the first difference. */
    static void assertSameBytes(MemorySegment actual, long actualOff, MemorySegment expected, long expectedOff, long len) {
        assertThat(firstDifference(actual, actualOff, expected, expectedOff, len)).as("first differing byte of %d", len)
                .isEqualTo(-1L);
    }

    /** Whether two ranges hold the same bytes. */
    static boolean sameBytes(MemorySegment actual, long actualOff, MemorySegment expected, long expectedOff, long len) {
        return firstDifference(actual, actualOff, expected, expectedOff, len) < 0;
    }

    private static long firstDifference(MemorySegment actual, long actualOff, MemorySegment expected, long expectedOff,
                                        long len) {
        return actual.asSlice(actualOff, len).mismatch(expected.asSlice(expectedOff, len));
    }

    static byte[] bytes(MemorySegment m, long off, int len) {
        return m.asSlice(off, len).toArray(ValueLayout.JAVA_BYTE);
    }
}
