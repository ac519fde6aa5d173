package io.jrxe.rnic.queue;

import io.jrxe.verbs.ScatterGatherList;

/** A receive work queue entry: the wr_id and where an incoming message's payload goes. */
public final class ReceiveWqe {
    long wrId;
    final ScatterGatherList sgl;

    public ReceiveWqe(int maxSge) {
        sgl = new ScatterGatherList(maxSge);
    }

    public long wrId() {
        return wrId;
    }

    public ScatterGatherList sgl() {
        return sgl;
    }

    public void wrId(long id) {
        wrId = id;
    }
}
