package io.jrxe.verbs.idle;

import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;

import java.util.concurrent.TimeUnit;

/** A CQ polled until a completion comes or the time passes: idling between looks as a strategy says, or by its events. */
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

    /**
     * Waits without spinning for completions of {@code cq}, a CQ of {@code channel} and the only one it serves: polls;
     * when none is there, arms the CQ, polls again (a completion that came before the arm gives no event), and
     * sleeps until its event, until at least one completion came or {@code timeoutNanos} passed.
     *
     * @return how many completions were filled in; 0 when the time passed
     */
    public static int byEvents(CompChannel channel, Cq cq, WorkCompletion[] wcs, long timeoutNanos)
            throws VerbsException, InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (true) {
            int n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            cq.requestNotify(false);
            n = cq.poll(wcs);
            if (n > 0) {
                return n;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0 || channel.awaitEvent(left, TimeUnit.NANOSECONDS) == null) {
                return cq.poll(wcs);
            }
        }
    }
}
