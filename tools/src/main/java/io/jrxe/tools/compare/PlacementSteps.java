package io.jrxe.tools.compare;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The memory placement operations of IBTA 1.5 (annex A19): ATOMIC_WRITE, which places 8 bytes at once, and FLUSH,
 * which makes earlier writes to a range globally visible, alone, chained after a write, and refused. Linux has
 * them since 6.2 (rxe), so `all` leaves them out. B's QP lets a peer FLUSH (FLUSH_GLOBAL in its access flags) and
 * a step that FLUSHes registers a region of B's buffer with FLUSH_GLOBAL for it. SendWr has no placement type or
 * selectivity level, so a FLUSH work request asks for global visibility of a range (what jrxe's requester sends):
 * the length of its SGE at remote_addr; no byte moves. ATOMIC_WRITE's 8 bytes are those of its SGE.
 */
final class PlacementSteps {
    /** B's QP accepts FLUSH as well as WRITE, READ and the atomics (rxe checks the QP's access flags first). */
    static final QpSettings FLUSHABLE = QpSettings.DEFAULT.withAccess(QpSettings.REMOTE_ACCESS | Access.FLUSH_GLOBAL);
    /** The region a FLUSH step registers: 16 KiB of B's buffer, at its own MR (and rkey). */
    static final int REGION = 32768;
    static final int REGION_LENGTH = 16384;
    /** What the FLUSH steps' region lets a peer do: write into it, read it, and flush it to global visibility. */
    static final int FLUSH_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.FLUSH_GLOBAL;
    /** Where A keeps the 8 bytes an ATOMIC_WRITE places. */
    private static final int VALUE_AT = 0;
    private static final long VALUE = 0x0123_4567_89AB_CDEFL;
    /** The word the ATOMIC_WRITE steps aim at (8-aligned), in B's ordinary MR; the word after it stays as it was. */
    private static final int WORD = 4096;
    private static final byte UNTOUCHED = (byte) 0xEE;

    private PlacementSteps() {
    }

    @FunctionalInterface
    private interface RegionBody {
        String run(Mr region) throws VerbsException;
    }

    static List<Step> all() {
        return List.of(
                step("atomic-write", "ATOMIC_WRITE: 8 bytes into an 8-aligned word of B", e -> {
                    e.b.memory.asSlice(WORD, 16).fill(UNTOUCHED);
                    e.post(atomicWrite(e, WORD, e.rkeyB()));
                    e.await(1, 0);
                    return words(e, WORD);
                }),
                step("flush-range", "FLUSH (global visibility, a range): 4096 bytes of a region B registered with "
                        + "FLUSH_GLOBAL", e -> withRegion(e, FLUSH_ACCESS, region -> {
                    e.b.memory.asSlice(REGION + 4096, 4096).fill((byte) 0x11);
                    e.post(flush(e, REGION + 4096, 4096, region.rkey()));
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, REGION + 4096, 4096);
                })),
                step("flush-region", "FLUSH over the whole of B's FLUSH_GLOBAL region (16384 bytes, as one range)",
                        e -> withRegion(e, FLUSH_ACCESS, region -> {
                    e.post(flush(e, REGION, REGION_LENGTH, region.rkey()));
                    e.await(1, 0);
                    return "-";
                })),
                step("write-flush", "RDMA_WRITE then FLUSH of what it wrote, posted as one chain (durability)",
                        e -> withRegion(e, FLUSH_ACCESS, region -> {
                    byte[] text = "written, then flushed: in place.".getBytes(StandardCharsets.US_ASCII);
                    e.a.memory.asSlice(8192, text.length).copyFrom(MemorySegment.ofArray(text));
                    SendWr write = e.wr(WrOpcode.RDMA_WRITE, 8192, text.length);
                    write.remoteAddr = e.b.at(REGION + 8192);
                    write.rkey = region.rkey();
                    e.post(write.next(flush(e, REGION + 8192, text.length, region.rkey())));
                    e.await(2, 0);
                    return MemoryView.describe("B", e.b.memory, REGION + 8192, text.length);
                })),
                step("atomic-write-flush", "ATOMIC_WRITE then FLUSH of its word, posted as one chain",
                        e -> withRegion(e, FLUSH_ACCESS, region -> {
                    e.b.memory.asSlice(REGION + 12288, 16).fill(UNTOUCHED);
                    SendWr place = atomicWrite(e, REGION + 12288, region.rkey());
                    e.post(place.next(flush(e, REGION + 12288, Long.BYTES, region.rkey())));
                    e.await(2, 0);
                    return words(e, REGION + 12288);
                })),
                step("flush-no-access", "FLUSH of B's ordinary MR, registered without FLUSH_GLOBAL: remote access error",
                        e -> {
                    e.post(flush(e, 0, 64, e.rkeyB()));
                    e.await(1, 0);
                    return "-";
                }),
                Step.of("flush-qp-no-access", mtu -> "FLUSH to a QP whose access flags allow no FLUSH (the region "
                        + "allows it): invalid request", QpSettings.DEFAULT, e -> withRegion(e, FLUSH_ACCESS, region -> {
                    e.post(flush(e, REGION, 64, region.rkey()));
                    e.await(1, 0);
                    return "-";
                })),
                step("atomic-write-misaligned", "ATOMIC_WRITE to an address 4 bytes past an 8-byte boundary: invalid "
                        + "request", e -> {
                    e.b.memory.asSlice(WORD, 16).fill(UNTOUCHED);
                    e.post(atomicWrite(e, WORD + 4, e.rkeyB()));
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, WORD, 16);
                }),
                step("atomic-write-read-only", "ATOMIC_WRITE into a region B registered for REMOTE_READ only: remote "
                        + "access error", e -> withRegion(e, Access.LOCAL_WRITE | Access.REMOTE_READ, region -> {
                    e.b.memory.asSlice(REGION, 16).fill(UNTOUCHED);
                    e.post(atomicWrite(e, REGION, region.rkey()));
                    e.await(1, 0);
                    return MemoryView.describe("B", e.b.memory, REGION, 16);
                })),
                step("register-persistent", "B registers ordinary memory with FLUSH_PERSISTENT (rxe wants pmem)", e -> {
                    Mr mr;
                    try {
                        mr = e.b.pd.regMr(e.b.memory.asSlice(REGION, REGION_LENGTH), Access.LOCAL_WRITE
                                | Access.REMOTE_WRITE | Access.FLUSH_PERSISTENT);
                    } catch (VerbsException refused) {
                        // The message is each provider's own; what a program can test is the errno.
                        return "reg_mr refused: " + refused.errno();
                    }
                    mr.close();
                    return "reg_mr registered it";
                }));
    }

    private static Step step(String id, String title, Step.Body body) {
        return Step.of(id, mtu -> title, FLUSHABLE, body);
    }

    /** Runs {@code body} with a region of B registered with {@code access}, deregistered afterwards. */
    private static String withRegion(StepEnv e, int access, RegionBody body) throws VerbsException {
        Mr region = e.b.pd.regMr(e.b.memory.asSlice(REGION, REGION_LENGTH), access);
        try {
            return body.run(region);
        } finally {
            region.close();
        }
    }

    /** An ATOMIC_WRITE of {@link #VALUE} from A's buffer to B's buffer at {@code remoteOffset}. */
    private static SendWr atomicWrite(StepEnv e, long remoteOffset, int rkey) {
        e.a.memory.set(ValueLayout.JAVA_LONG_UNALIGNED, VALUE_AT, VALUE);
        SendWr w = e.wr(WrOpcode.ATOMIC_WRITE, VALUE_AT, Long.BYTES);
        w.remoteAddr = e.b.at(remoteOffset);
        w.rkey = rkey;
        return w;
    }

    /** A FLUSH of {@code length} bytes of B's buffer at {@code remoteOffset}: its SGE on A names the length only. */
    private static SendWr flush(StepEnv e, long remoteOffset, int length, int rkey) {
        SendWr w = e.wr(WrOpcode.FLUSH, 0, length);
        w.remoteAddr = e.b.at(remoteOffset);
        w.rkey = rkey;
        return w;
    }

    /** B's word at {@code offset} and the one after it, which an 8-byte placement must leave alone. */
    private static String words(StepEnv e, long offset) {
        return String.format("B+%d: word 0x%016x, next 0x%016x", offset, MemoryView.word(e.b.memory, offset),
                MemoryView.word(e.b.memory, offset + 8));
    }
}
