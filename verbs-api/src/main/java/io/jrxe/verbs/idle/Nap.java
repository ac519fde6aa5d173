package io.jrxe.verbs.idle;

import java.util.concurrent.locks.LockSupport;

/** A sleep that lasts as long as asked: for a poster whose queue holds milliseconds of work, a pace, a settle. */
public final class Nap {
    private Nap() {
    }

    /**
     * Sleeps {@code nanos}, or until interrupted. One parkNanos is not enough: it returns at once when an earlier
     * unpark of this thread left its permit (a future completed just after its waiter gave up), and may return
     * early for no reason at all.
     */
    public static void forNanos(long nanos) {
        long wakeAt = System.nanoTime() + nanos;
        for (long left = nanos; left > 0 && !Thread.currentThread().isInterrupted(); left = wakeAt - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
