package io.jrxe.tools.mistakes;

import io.jrxe.rnic.engine.TraceListener;
import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.memory.Translation;
import io.jrxe.tools.common.SimulatedCaptureFile;
import io.jrxe.tools.common.SimulatedPair;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The mistakes about memory: a buffer no MR covers, a buffer that does not start on a page, a registration larger
 * than the translation table, and memory given back while it is registered.
 */
final class MemoryMistakes {
    /** The small MTT of the "too large" mistake: 64 entries, 256 KiB of translation. */
    static final long SMALL_MTT = 64;

    private MemoryMistakes() {
    }

    static Section unregistered(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("unregistered", "Memory not registered: a WRITE from a buffer no MR covers");
        try (Scene scene = new Scene(capture)) {
            MemorySegment stray = scene.pair.arena().allocate(4096, 4096);
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, 64, 0);
            wr.sgl.clear();
            wr.sgl.add(stray.address(), 64, scene.a.mr.lkey());
            s.did(String.format("jrxe0 allocated 4 KiB at 0x%x and never registered it; it posted RDMA_WRITE wr_id=%d of 64 "
                    + "bytes from there with lkey 0x%08x, the key of its MR over 0x%x..0x%x", stray.address(), wr.wrId,
                    scene.a.mr.lkey(), scene.a.mr.iova(), scene.a.mr.iova() + scene.a.mr.length()));
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "the requester checks the SGE against the lkey's MPT entry before it builds a packet");
            s.result("completion on jrxe0: " + scene.completion(wc));
            s.result("QP state: jrxe0 " + Scene.state(scene.a));
            s.rule = "every SGE must lie inside the region of its L_Key, with the access it needs; a WQE that fails the "
                    + "check completes LOC_PROT_ERR and the QP goes to ERR (IBTA 10.6, memory regions; rxe: the range check "
                    + "of copy_data fails, IB_WC_LOC_PROT_ERR)";
            s.fix = "register the buffer (ibv_reg_mr) and use that MR's lkey, or copy the data into registered memory";
            s.expect(wc != null && wc.status() == WcStatus.LOC_PROT_ERR && wc.vendorErr() == 7,
                    "LOC_PROT_ERR with vendor_err 7 (out of range)");
            s.expect(s.packets.getFirst().startsWith("none"), "no packet");
        }
        return s;
    }

    static Section unaligned(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("unaligned", "Buffer not page-aligned: legal, and what it costs");
        try (Scene scene = new Scene(capture)) {
            int length = 8192;
            MemorySegment pages = scene.pair.arena().allocate(3 * 4096, 4096);
            MemorySegment buffer = pages.asSlice(100, length);
            for (int i = 0; i < length; i++) {
                buffer.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 3 + 1));
            }
            Mr mr = scene.a.pd.regMr(buffer, Access.LOCAL_WRITE);
            Translation first = scene.a.jrxe.translate(mr, mr.iova());
            Translation last = scene.a.jrxe.translate(mr, mr.iova() + length - 1);
            long entries = last.mttIndex() - first.mttIndex() + 1;
            s.did(String.format("jrxe0 registered %d bytes at 0x%x, 100 bytes into a page (lkey 0x%08x), and wrote them to "
                    + "jrxe1 in one RDMA_WRITE", length, buffer.address(), mr.lkey()));
            s.result("first byte: " + first);
            s.result("last byte:  " + last);
            int[] pageCopies = {0};
            scene.a.device.nic().trace(new PageCounter(pageCopies));
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, length, 0);
            wr.sgl.clear();
            wr.sgl.add(buffer.address(), length, mr.lkey());
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.a.device.nic().trace(null);
            scene.packets(s, "");
            boolean arrived = scene.b.memory.asSlice(0, length).mismatch(buffer) == -1;
            s.result("completion on jrxe0: " + scene.completion(wc) + (arrived ? "; all " + length + " bytes arrived" : ""));
            s.result(String.format("cost: %d MTT entries where a page-aligned buffer of %d bytes takes %d, and the DMA "
                    + "engine copied %d pieces (each packet of 4096 bytes straddles two pages) where it would copy %d",
                    entries, length, length / 4096, pageCopies[0], length / 4096));
            s.rule = "verbs register any byte range: the MR starts at its iova's offset in the first page (ibv_reg_mr "
                    + "needs no alignment); the NIC translates whole pages, so a range that starts or ends inside a page "
                    + "takes the partial pages' MTT entries too";
            s.fix = "nothing is wrong; for large or hot buffers allocate page-aligned (posix_memalign, mmap, "
                    + "Arena.allocate(size, 4096)) to save MTT entries and let each packet come from one page";
            s.expect(first.pageOffset() == 100, "the first byte at page offset 0x064");
            s.expect(entries == 3, "3 MTT entries");
            s.expect(wc != null && wc.status() == WcStatus.SUCCESS && arrived, "SUCCESS and the bytes arrived");
            s.expect(pageCopies[0] == 4, "4 page pieces copied");
        }
        return s;
    }

    static Section tooLarge(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("mtt-too-small", "Registration larger than the translation table");
        try (Scene scene = new Scene(SimulatedPair.Settings.defaults().mttEntries(SMALL_MTT), capture)) {
            long size = 1 << 20;
            MemorySegment big = scene.pair.arena().allocate(size, 4096);
            s.did(String.format("jrxe0 was made with an MTT of %d entries (%d KiB of memory at 4 KiB a page); its 64 KiB "
                    + "buffer holds 16; it registered 1 MiB more (256 pages)", SMALL_MTT, SMALL_MTT * 4));
            VerbsException refused = null;
            try {
                scene.a.pd.regMr(big, Access.LOCAL_WRITE).close();
            } catch (VerbsException e) {
                refused = e;
            }
            scene.packets(s, "registration is local: the peer never hears of it");
            s.result(refused == null ? "ibv_reg_mr succeeded" : "ibv_reg_mr failed: errno " + refused.errno() + " ("
                    + refused.errno().value() + "): " + refused.getMessage());
            s.rule = "an MR takes one MTT entry per page, in one contiguous run of the device's table; when no run is "
                    + "long enough, reg_mr fails with ENOMEM (a hardware RNIC's MTT is sized by its firmware; kernel rxe "
                    + "has no MTT, and its limit is max_mr_size and what the process may pin, RLIMIT_MEMLOCK)";
            s.fix = "register less (reuse one large MR for many buffers), use larger pages (huge pages need fewer "
                    + "entries), or a device with a larger MTT (jrxe mtt-size says how many entries a size needs)";
            s.expect(refused != null && refused.errno() == Errno.ENOMEM, "reg_mr refused with ENOMEM");
        }
        return s;
    }

    /** Counts the DMA engine's page pieces (one per page a copy touches in each packet). */
    private record PageCounter(int[] count) implements TraceListener {
        @Override
        public void event(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        }

        @Override
        public void translation(int key, int mptIndex, long iova, long mttIndex, long pageAddress, int pageOffset,
                                int length, boolean toMemory) {
            count[0]++;
        }
    }

    static Section freed(SimulatedCaptureFile capture) throws VerbsException {
        Section s = new Section("freed", "Memory freed while registered: deregistering under outstanding work, "
                + "and freeing the memory of a live MR");
        try (Scene scene = new Scene(capture)) {
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, 64, 0);
            int lkey = scene.a.mr.lkey();
            scene.a.qp.postSend(wr);
            scene.a.mr.close();
            s.did(String.format("(a) jrxe0 posted RDMA_WRITE wr_id=%d of 64 bytes with lkey 0x%08x, then deregistered that MR "
                    + "(ibv_dereg_mr) before the NIC had read the WQE", wr.wrId, lkey));
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "(a) ", "the requester found the lkey stale before it built a packet");
            s.result("(a) completion on jrxe0: " + scene.completion(wc) + "; QP state " + Scene.state(scene.a));
            s.expect(wc != null && wc.status() == WcStatus.LOC_PROT_ERR && wc.vendorErr() == 2,
                    "(a) LOC_PROT_ERR with vendor_err 2 (stale key)");
        }
        freedArena(s, capture);
        s.rule = "(a) deregistration is allowed while WRs that name the MR are outstanding; the key is gone at once, so a "
                + "WQE the NIC reaches later fails its key check: LOC_PROT_ERR (kernel rxe looks the MR up when it executes the "
                + "WQE too, and completes it LOC_QP_OP_ERR: docs/differences.md). (b) In C, free() of a registered buffer frees nothing the NIC uses: the pages stay "
                + "pinned until ibv_dereg_mr, and the NIC goes on reading and writing them while the program may reuse "
                + "the addresses for something else. Java cannot leave freed memory mapped: jrxe checks the arena is "
                + "alive and refuses the access as a failed key check: NAK remote access error (vendor_err 9, memory freed, "
                + "on a local access)";
        s.fix = "wait for the completions of every WR that names an MR before ibv_dereg_mr, and deregister before "
                + "freeing (in Java: close the MR before its Arena)";
        return s;
    }

    /** (b): the memory of jrxe1's MR is freed (its Arena closed) while registered, then jrxe0 writes to it. */
    private static void freedArena(Section s, SimulatedCaptureFile capture) throws VerbsException {
        try (Scene scene = new Scene(capture)) {
            java.lang.foreign.Arena own = java.lang.foreign.Arena.ofShared();
            MemorySegment target = own.allocate(4096, 4096);
            Mr mr = scene.b.pd.regMr(target, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            own.close();
            SendWr wr = scene.remote(WrOpcode.RDMA_WRITE, 0, 64, 0);
            wr.remoteAddr = target.address();
            wr.rkey = mr.rkey();
            s.did(String.format("(b) jrxe1 registered 4 KiB at 0x%x from an Arena of its own (rkey 0x%08x) and closed "
                    + "the Arena, freeing the memory; jrxe0 then posted RDMA_WRITE wr_id=%d of 64 bytes to it", target.address(),
                    mr.rkey(), wr.wrId));
            scene.a.qp.postSend(wr);
            WorkCompletion wc = scene.pair.pollOne(scene.a);
            scene.packets(s, "(b) ", "");
            s.result("(b) completion on jrxe0: " + scene.completion(wc) + "; QP states: jrxe0 " + Scene.state(scene.a)
                    + ", jrxe1 " + Scene.state(scene.b));
            Scene.asyncEvents(scene.b).forEach(e -> s.result("(b) " + e));
            s.result(String.format("(b) jrxe1's counters: jrxe_engine_errors=%d", Scene.counter(scene.b, "jrxe_engine_errors")));
            s.expect(wc != null && wc.status() == WcStatus.REM_ACCESS_ERR, "(b) REM_ACCESS_ERR");
            s.expect(Scene.state(scene.b) == QpState.ERR, "(b) jrxe1's QP in ERR");
            s.expect(Scene.counter(scene.b, "jrxe_engine_errors") == 0, "(b) no engine error on jrxe1");
        }
    }
}
