package io.jrxe.verbs.nativ;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.nativ.abi.IbvSrq;
import io.jrxe.verbs.nativ.abi.IbvSrqAttr;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/** A shared receive queue of a kernel device (struct ibv_srq); receives go through the provider's post_srq_recv. */
final class NativeSrq implements Srq {
    private final CloseOnce closing = new CloseOnce();
    /** IBV_SRQ_LIMIT (enum ibv_srq_attr_mask). */
    static final int LIMIT = 1 << 1;

    private final NativeContext context;
    private final MemorySegment srq;
    private final int maxWr;
    private final int maxSge;
    private final Arena arena = Arena.ofShared();
    private final RecvPoster receives;

    NativeSrq(NativeContext context, MemorySegment srq, int maxWr, int maxSge) {
        this.context = context;
        this.srq = srq.reinterpret(IbvSrq.SIZE);
        this.maxWr = maxWr;
        this.maxSge = maxSge;
        this.receives = new RecvPoster(arena, context.postSrqRecv, this.srq, maxWr, maxSge, "post_srq_recv on " + this);
    }

    MemorySegment srq() {
        return srq;
    }

    @Override
    public int maxWr() {
        return maxWr;
    }

    @Override
    public int maxSge() {
        return maxSge;
    }

    @Override
    public void armLimit(int limit) throws VerbsException {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment attr = a.allocate(IbvSrqAttr.LAYOUT);
            attr.set(JAVA_INT, IbvSrqAttr.SRQ_LIMIT, limit);
            context.lib.check("ibv_modify_srq", srq, attr, LIMIT);
        }
    }

    @Override
    public void postRecv(RecvWr wr) throws VerbsException {
        receives.post(wr);
    }

    @Override
    public void close() throws VerbsException {
        closing.close(() -> {
            context.lib.check("ibv_destroy_srq", srq);
            arena.close();
        });
    }

    @Override
    public String toString() {
        return "SRQ " + srq.get(JAVA_INT, IbvSrq.HANDLE) + " of " + context.name();
    }
}
