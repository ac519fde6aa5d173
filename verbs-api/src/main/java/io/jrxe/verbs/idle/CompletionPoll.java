package io.jrxe.verbs.idle;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.WorkCompletion;

/** A CQ polled until a completion comes or the time passes, idling between looks as a strategy says. */
public final class CompletionPoll {
    private CompletionPoll() {
    }

    /**
     * Polls {@code cq} until at least one completion is there or {@code timeoutNanos} pass.
     *
     * @return how many completions were filled in; 0 when the time passed
     * @throws InterruptedException when the thread was interrupted while it waited
     */
    public static int poll(Cq cq, WorkCompletion[] wcs, long timeoutNanos, IdleStrategy idle) throws InterruptedException {
        int n = cq.poll(wcs);
        if (n > 0 || timeoutNanos <= 0) {
            return n;
        }
        long start = System.nanoTime();
        for (int looks = 1; ; looks++) {
            n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while polling " + cq + " for a completion");
            }
            if (idle.idle(looks, start, timeoutNanos)) {
                return cq.poll(wcs);
            }
        }
    }
}
