package io.jrxe.verbs.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * How a wait for completions that may last (a bandwidth test's window, a program's wait) spends its time:
 * it spins as long as a latency wait first, then yields for up to {@link #YIELD_NANOS}, then parks for a few
 * microseconds at a time, longer as the wait goes on. The NIC that makes the completions is a thread of this
 * machine too, and must not be starved of a CPU by the very loop that waits for it. A park may sleep on what
 * is awaited instead ({@link Parker}): a jrxe CQ ends it as soon as it holds a completion, where a timed park
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

    /** A park that what is awaited ends early (a jrxe CQ ends it as a completion comes). */
    @FunctionalInterface
    public interface Parker {
        /** Parks until what is awaited may have come, or for at most {@code nanos}; false when it cannot park so. */
        boolean park(long nanos);
    }

    private static final Parker PARK_ONLY = nanos -> false;
    /** One that parks with a timer only; it keeps no state, so every waiter may share it. */
    public static final BackoffIdle PARK_ONLY_WAIT = new BackoffIdle();
    private final Parker parker;

    /** Parks with a timer only. */
    public BackoffIdle() {
        this(PARK_ONLY);
    }

    /** Parks by {@code parker} where it can (e.g. on a CQ), else with a timer. */
    public BackoffIdle(Parker parker) {
        this.parker = parker;
    }

    /** Spins, yields or parks, as long as the wait has lasted says. */
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
            long nanos = parkNanos(waited);
            if (!parker.park(nanos)) {
                LockSupport.parkNanos(nanos);
            }
        }
        return waited > timeoutNanos;
    }

    /**
     * How long a wait that has lasted {@code waited} ns (at least {@link #YIELD_NANOS}) parks: from 20 to 80 µs, so that
     * a long wait costs a few wake-ups instead of tens of thousands, and leaves the CPU to the NIC threads that end it.
     */
    static long parkNanos(long waited) {
        return PARK_NANOS << Math.min((waited - YIELD_NANOS) / PARK_DOUBLING_NANOS, MAX_PARK_DOUBLINGS);
    }
}
