package io.jrxe.verbs;

/** A receive work request (ibv_recv_wr): reusable, chainable like {@link SendWr}. */
public final class RecvWr {
    public long wrId;
    public final ScatterGatherList sgl;
    private RecvWr next;

    public RecvWr(int maxSge) {
        sgl = new ScatterGatherList(maxSge);
    }

    public RecvWr next() {
        return next;
    }

    public RecvWr next(RecvWr n) {
        next = n;
        return this;
    }
}
