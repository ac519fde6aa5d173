package io.jrxe.verbs.nativ;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvSendWr;
import io.jrxe.verbs.nativ.abi.IbvSge;
import io.jrxe.verbs.nativ.codec.Handles;
import io.jrxe.verbs.nativ.codec.SendWrEncoder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** ibv_post_send for one QP: each ibv_send_wr slot with its SGE array and inline buffer. */
final class SendPoster extends ChainPoster<SendWr> {
    private final boolean ud;
    private final Handles handles;
    private final MemorySegment[] sges;
    private final MemorySegment[] inline;
    private final ExtendedSends extended;

    /** @param extended FLUSH and ATOMIC_WRITE through the extended QP API, or null when the QP has none */
    SendPoster(Arena arena, MemorySegment postSend, MemorySegment qp, int maxWr, int maxSge, int maxInline, boolean ud,
               Handles handles, ExtendedSends extended, String what) {
        super(arena, postSend, qp, maxWr, IbvSendWr.LAYOUT, IbvSendWr.NEXT, what);
        this.ud = ud;
        this.extended = extended;
        this.handles = handles;
        sges = new MemorySegment[wrs.length];
        inline = new MemorySegment[wrs.length];
        for (int i = 0; i < wrs.length; i++) {
            sges[i] = arena.allocate(IbvSge.LAYOUT, Math.max(1, maxSge)); // inline data needs one SGE even then
            inline[i] = arena.allocate(Math.max(0, maxInline), 8);
        }
    }

    @Override
    String encode(SendWr wr, int slot) {
        return SendWrEncoder.encode(wr, wrs[slot], sges[slot], inline[slot], ud, handles);
    }

    @Override
    boolean postsAlone(SendWr wr) {
        return extended != null && ExtendedSends.carries(wr);
    }

    @Override
    void postAlone(SendWr wr, int index, String what) throws VerbsException {
        extended.post(wr, index, what);
    }

    @Override
    SendWr next(SendWr wr) {
        return wr.next();
    }
}
