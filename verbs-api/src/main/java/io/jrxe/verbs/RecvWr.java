package io.jrxe.verbs;

/** A receive work request (ibv_recv_wr): reusable, chainable like {@link SendWr}. */
public final class RecvWr {
    /** The caller's identifier, returned in the completion. */
    public long wrId;
    /** Where an incoming message is placed. */
    public final ScatterGatherList sgl;
    private RecvWr next;

    /** A receive work request with room for {@code maxSge} scatter/gather entries. */
    public RecvWr(int maxSge) {
        sgl = new ScatterGatherList(maxSge);
    }

    /** The next work request of the chain, or null. */
    public RecvWr next() {
        return next;
    }

    /** Chains {@code n} after this work request, to post both in one call; returns this. */
    public RecvWr next(RecvWr n) {
        next = n;
        return this;
    }
}
