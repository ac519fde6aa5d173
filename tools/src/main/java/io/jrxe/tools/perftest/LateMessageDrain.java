package io.jrxe.tools.perftest;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WorkCompletion;

import java.util.concurrent.locks.LockSupport;

/**
 * send_bw's server after a timed run (-D): it has counted what came inside its window and waits in a handshake for
 * the client, whose last messages (up to tx_depth per QP) still arrive into the receives posted. Their completions
 * are polled and dropped meanwhile: left in the receive CQ, which is at most max_cqe entries for all the QPs (with
 * -q 1000 far fewer than the client has in flight), they would overflow it, the server's QPs would go to ERR and
 * the client would end with RETRY_EXC_ERR.
 */
final class LateMessageDrain implements AutoCloseable {
    private static final long IDLE_NANOS = 100_000;

    private final Cq cq;
    private final Thread thread;
    private volatile boolean stop;

    private LateMessageDrain(Cq cq) {
        this.cq = cq;
        this.thread = Thread.ofPlatform().daemon().name("jrxe-late-message-drain").unstarted(this::drain);
    }

    /** Starts polling the CQ on a thread of its own; the caller polls it no more until {@link #close()}. */
    static LateMessageDrain start(Cq cq) {
        LateMessageDrain d = new LateMessageDrain(cq);
        d.thread.start();
        return d;
    }

    private void drain() {
        WorkCompletion[] wcs = new WorkCompletion[64];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        while (!stop) {
            if (cq.poll(wcs) == 0) {
                LockSupport.parkNanos(IDLE_NANOS);
            }
        }
    }

    /** Stops polling: the CQ is the caller's again. */
    @Override
    public void close() {
        stop = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
