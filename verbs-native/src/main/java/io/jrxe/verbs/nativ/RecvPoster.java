package io.jrxe.verbs.nativ;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.nativ.abi.IbvRecvWr;
import io.jrxe.verbs.nativ.abi.IbvSge;
import io.jrxe.verbs.nativ.codec.RecvWrEncoder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** ibv_post_recv for a QP or ibv_post_srq_recv for an SRQ: each ibv_recv_wr slot with its SGE array. */
final class RecvPoster extends ChainPoster<RecvWr> {
    private final MemorySegment[] sges;

    RecvPoster(Arena arena, MemorySegment function, MemorySegment queue, int maxWr, int maxSge, String what) {
        super(arena, function, queue, maxWr, IbvRecvWr.LAYOUT, IbvRecvWr.NEXT, what);
        sges = new MemorySegment[wrs.length];
        for (int i = 0; i < wrs.length; i++) {
            sges[i] = arena.allocate(IbvSge.LAYOUT, Math.max(1, maxSge));
        }
    }

    @Override
    String encode(RecvWr wr, int slot) {
        return RecvWrEncoder.encode(wr, wrs[slot], sges[slot]);
    }

    @Override
    RecvWr next(RecvWr wr) {
        return wr.next();
    }
}
