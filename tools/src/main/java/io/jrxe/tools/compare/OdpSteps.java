package io.jrxe.tools.compare;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;

/**
 * On-demand paging (docs/odp.md): each step registers fresh memory with Access.ON_DEMAND, so that nothing is in the
 * device's translation when the step's transfer reaches it, and shows what landed. Every access kind that can fault:
 * a peer's WRITE, READ and atomic, a local gather and a receive's scatter; then a prefetch (ibv_advise_mr) ahead of a
 * WRITE, and a WRITE after the pages were taken away (Mr.invalidate on a jrxe NIC; on a kernel device the kernel's
 * own invalidation, caused by dropping the pages' mappings). A kernel whose rxe has no ODP (before Linux 6.15) refuses
 * the registrations, and one before 6.17 the prefetch: those rows then differ, which is what they show.
 * <p>
 * Each transfer is one packet at the start of a page: Linux 7.2's rxe places a packet that starts inside a page of
 * an ON_DEMAND MR at the page's start (docs/interop.md, "rxe 7.2 and on-demand paging"), and this scenario is about
 * faulting, not about that.
 */
final class OdpSteps {
    private static final long PAGE = 4096;
    private static final int PAGES = 3;
    private static final int ACCESS = Node.ACCESS | Access.ON_DEMAND;

    private OdpSteps() {
    }

    /** A fresh ON_DEMAND registration of {@link #PAGES} page-aligned pages, and their memory. */
    private record OdpMemory(Arena arena, MemorySegment memory, Mr mr) implements AutoCloseable {
        /** @param fill the step of the byte pattern the program writes before registering, 0 to leave zeros */
        static OdpMemory register(Node node, int fill) throws VerbsException {
            Arena arena = Arena.ofShared(); // the NIC reaches it from its own thread
            MemorySegment memory = arena.allocate(PAGES * PAGE, PAGE);
            if (fill != 0) {
                pattern(memory, 0, (int) memory.byteSize(), fill);
            }
            try {
                return new OdpMemory(arena, memory, node.pd.regMr(memory, ACCESS));
            } catch (VerbsException e) {
                arena.close();
                throw e;
            }
        }

        long at(long offset) {
            return memory.address() + offset;
        }

        @Override
        public void close() {
            try {
                mr.close();
            } catch (VerbsException e) {
                // the memory goes next; the device forgets the MR with its PD at the latest
            }
            arena.close();
        }
    }

    static List<Step> all() {
        return List.of(
                Step.of("odp-write", "RDMA_WRITE into on-demand memory of B that no access has touched: B's device "
                        + "faults the page in", e -> {
                    try (OdpMemory b = OdpMemory.register(e.b, 0)) {
                        int length = onePacket(e);
                        pattern(e.a.memory, 4096, length, 5);
                        writeInto(e, b, 4096, length, PAGE);
                        return MemoryView.describe("B(odp)", b.memory, PAGE, length);
                    }
                }),
                Step.of("odp-read", "RDMA_READ of on-demand memory of B: the responder faults the page in", e -> {
                    try (OdpMemory b = OdpMemory.register(e.b, 7)) {
                        int length = onePacket(e);
                        SendWr w = e.wr(WrOpcode.RDMA_READ, 20480, length);
                        w.remoteAddr = b.at(2 * PAGE);
                        w.rkey = b.mr.rkey();
                        e.post(w);
                        e.await(1, 0);
                        return MemoryView.describe("A", e.a.memory, 20480, length);
                    }
                }),
                Step.of("odp-gather", "RDMA_WRITE from on-demand memory of A: A's device faults its own page in to "
                        + "gather the payload", e -> {
                    try (OdpMemory a = OdpMemory.register(e.a, 3)) {
                        int length = onePacket(e);
                        SendWr w = e.remote(WrOpcode.RDMA_WRITE, 0, length, 40960);
                        w.sgl.clear();
                        w.sgl.add(a.at(PAGE), length, a.mr.lkey());
                        e.post(w);
                        e.await(1, 0);
                        return MemoryView.describe("B", e.b.memory, 40960, length);
                    }
                }),
                Step.of("odp-recv", "SEND into a receive posted on on-demand memory of B: the scatter faults the page in",
                        e -> {
                    try (OdpMemory b = OdpMemory.register(e.b, 0)) {
                        int length = onePacket(e);
                        pattern(e.a.memory, 8192, length, 11);
                        RecvWr r = new RecvWr(1);
                        r.wrId = 2000;
                        r.sgl.add(b.at(0), (int) PAGE, b.mr.lkey());
                        e.c.qpB.postRecv(r);
                        e.post(e.wr(WrOpcode.SEND, 8192, length));
                        e.await(1, 1);
                        return MemoryView.describe("B(odp)", b.memory, 0, length);
                    }
                }),
                Step.of("odp-atomic", "ATOMIC_FETCH_AND_ADD on a word of on-demand memory of B", e -> {
                    try (OdpMemory b = OdpMemory.register(e.b, 0)) {
                        b.memory.set(ValueLayout.JAVA_LONG, PAGE, 40);
                        SendWr w = e.wr(WrOpcode.ATOMIC_FETCH_AND_ADD, 28672, 8);
                        w.remoteAddr = b.at(PAGE);
                        w.rkey = b.mr.rkey();
                        w.compareAdd = 2;
                        e.post(w);
                        e.await(1, 0);
                        return "B's word " + MemoryView.word(b.memory, PAGE) + ", A got " + MemoryView.word(e.a.memory, 28672);
                    }
                }),
                Step.of("odp-prefetch", "ibv_advise_mr PREFETCH_WRITE with FLUSH on B's on-demand memory, then an "
                        + "RDMA_WRITE into it: no fault left to take", e -> {
                    try (OdpMemory b = OdpMemory.register(e.b, 0)) {
                        int length = onePacket(e);
                        b.mr.advisePrefetch(b.mr.iova(), b.memory.byteSize(), true, true);
                        pattern(e.a.memory, 4096, length, 13);
                        writeInto(e, b, 4096, length, 2 * PAGE);
                        return "prefetched; " + MemoryView.describe("B(odp)", b.memory, 2 * PAGE, length);
                    }
                }),
                Step.of("odp-invalidate", "RDMA_WRITE, B's pages taken away (a kernel device: madvise DONTNEED and its "
                        + "MMU notifier; a jrxe NIC: Mr.invalidate), RDMA_WRITE again: the page faults in again", e -> {
                    try (OdpMemory b = OdpMemory.register(e.b, 0)) {
                        int length = onePacket(e);
                        pattern(e.a.memory, 4096, length, 17);
                        writeInto(e, b, 4096, length, 0);
                        if ("native".equals(e.b.ctx.device().provider())) {
                            KernelPageDrop.drop(b.memory);
                        } else {
                            b.mr.invalidate(b.mr.iova(), b.memory.byteSize());
                        }
                        pattern(e.a.memory, 4096, length, 19);
                        writeInto(e, b, 4096, length, 0);
                        // A kernel's dropped pages come back as zeros, a jrxe NIC's keep their bytes: only the
                        // second WRITE's bytes are the same on both.
                        return MemoryView.describe("B(odp)", b.memory, 0, length);
                    }
                }));
    }

    /** One packet at the path MTU, at most a page: every transfer of this scenario starts a page and stays in it. */
    private static int onePacket(StepEnv e) {
        return (int) Math.min(e.mtu.bytes(), PAGE);
    }

    private static void pattern(MemorySegment memory, long offset, int length, int step) {
        for (int i = 0; i < length; i++) {
            memory.set(ValueLayout.JAVA_BYTE, offset + i, (byte) (i * step + 1));
        }
    }

    /** A's RDMA_WRITE of its bytes at {@code from} to {@code to} in {@code b}, waited for. */
    private static void writeInto(StepEnv e, OdpMemory b, long from, int length, long to) throws VerbsException {
        SendWr w = e.wr(WrOpcode.RDMA_WRITE, from, length);
        w.remoteAddr = b.at(to);
        w.rkey = b.mr.rkey();
        e.post(w);
        e.await(1, 0);
    }
}
