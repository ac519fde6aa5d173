package io.jrxe.tools.perftest;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;

/**
 * The receiving half of perftest's send bandwidth loops (run_iter_bw_server, and run_iter_bi with -b): count
 * the receives, and post one again into the area a receive used while that area is owed more messages. With an
 * SRQ the area is the one the receive's wr_id names, whichever QP the message came on.
 */
final class ReceiveSide {
    private final PerftestResources res;
    private final int n;
    /** Per QP: Long.MAX_VALUE with -D. */
    private final long iters;
    private final boolean duration;
    private final long[] posted;
    private final RecvWr[] r;
    private long rcnt;
    /** Receives posted so far, the first ones included, over every QP. */
    private long postedTotal;

    /** Expects the first receives to be posted already ({@link PerftestResources#postReceives}). */
    ReceiveSide(PerftestSettings s, PerftestResources res, long size) {
        this.res = res;
        this.n = s.qps;
        this.duration = s.durationSeconds > 0;
        this.iters = duration ? Long.MAX_VALUE : s.iters;
        this.posted = new long[n];
        this.r = new RecvWr[n];
        for (int q = 0; q < n; q++) {
            posted[q] = res.receivesPerQp();
            r[q] = res.recvWr(q, size);
            postedTotal += posted[q];
        }
    }

    /** Every QP's messages: Long.MAX_VALUE with -D. */
    long total() {
        return duration ? Long.MAX_VALUE : iters * n;
    }

    long received() {
        return rcnt;
    }

    /** Receives posted that no message has used yet. */
    long waiting() {
        return postedTotal - rcnt;
    }

    /** One receive completion: counted, and a receive posted again where more messages are due. */
    void received(WorkCompletion c) throws VerbsException {
        PerftestResources.check(c, "receive", rcnt, rcnt);
        rcnt++;
        int q = (int) c.wrId();
        if (duration || posted[q] + 1 <= iters) {
            res.postRecv(q, r[q]);
            posted[q]++;
            postedTotal++;
        }
    }
}
