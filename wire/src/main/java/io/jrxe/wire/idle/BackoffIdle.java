package io.jrxe.wire.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * How a wait for completions that may last (a bandwidth test's window, a program's wait) spends its time:
 * it spins as long as a latency wait first, then yields for up to {@link #YIELD_NANOS}, then parks for a few
 * microseconds at a time, longer as the wait goes on. The NIC that makes the completions is a thread of this
 * machine too, and must not be starved of a CPU by the very loop that waits for it. A park may sleep on what
 * is awaited instead ({@link Sleeper}): a jrxe CQ ends it as soon as it holds a completion, where a timed park
 * oversleeps by the kernel's timer slack (50 µs), long enough for a bandwidth test's send queue to run dry.
 * One per waiting loop; stateless, so one may serve a thread's every wait.
 */
public final class BackoffIdle implements IdleStrategy {
    /**
     * How long a wait yields the CPU before it parks. A yield hands the core to a NIC thread that is ready to run
     * on it and costs nothing when none is; a park costs a wake-up, which on a busy 2-core machine comes tens of
     * microseconds late. A bandwidth test waits for completions every window (a 64-byte send-bw every 100
     * messages, about 150 µs of the NIC's work), and a wait that parked after a few yields would leave the NIC's
     * queue dry during each wake-up: yielding for this long covers a window's wait. Longer waits (a full queue of
     * large messages, a peer that went quiet) still end up parked.
     */
    public static final long YIELD_NANOS = 1_000_000;
    private static final long PARK_NANOS = 20_000;
    /** Parks double after this much parking, up to {@link #MAX_PARK_DOUBLINGS} times (20, 40, then 80 µs). */
    private static final long PARK_DOUBLING_NANOS = 160_000;
    private static final int MAX_PARK_DOUBLINGS = 2;

    /** Sleeps until what is awaited may have come, or for at most the given time; false when it cannot sleep so. */
    @FunctionalInterface
    public interface Sleeper {
        boolean sleep(long nanos);
    }

    private static final Sleeper PARK_ONLY = nanos -> false;
    private final Sleeper sleeper;

    /** Parks with a timer only. */
    public BackoffIdle() {
        this(PARK_ONLY);
    }

    /** Parks by {@code sleeper} where it can (e.g. on a CQ), else with a timer. */
    public BackoffIdle(Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    @Override
    public boolean idle(int looks, long startNanos, long timeoutNanos) {
        if (looks < LatencyIdle.SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
            return false;
        }
        long waited = System.nanoTime() - startNanos;
        if (waited < YIELD_NANOS) {
            Thread.yield();
        } else {
            // Parks grow from 20 to 80 µs: a long wait then costs a few wake-ups instead of tens of thousands, and
            // leaves the CPU to the NIC threads that end it.
            long nanos = PARK_NANOS << Math.min((waited - YIELD_NANOS) / PARK_DOUBLING_NANOS, MAX_PARK_DOUBLINGS);
            if (!sleeper.sleep(nanos)) {
                LockSupport.parkNanos(nanos);
            }
        }
        return waited > timeoutNanos;
    }
}
