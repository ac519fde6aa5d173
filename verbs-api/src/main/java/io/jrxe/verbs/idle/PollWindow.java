package io.jrxe.verbs.idle;

/**
 * How a thread that runs a NIC waits for work: after its last work it keeps polling (yielding the CPU
 * between looks) for a window before it blocks. A packet or doorbell that comes within the window is
 * served without a thread wake-up; an idle device blocks after it and costs no CPU. One per thread.
 *
 * <p>The windows, by thread: a NIC thread {@link #NIC_THREAD_NANOS}; an invoked NIC's standby thread the
 * same; a program's thread that runs an invoked NIC while it waits for an event
 * {@link #EVENT_WAITER_NANOS}.
 */
public final class PollWindow {
    /**
     * A NIC thread's window (and an invoked NIC's standby thread's). On a busy 2-core machine a blocked
     * thread's wake-up comes tens of microseconds late, and a bandwidth test's NIC threads often go quiet
     * for longer than 50 µs between two windows of work (the peer's turn): 200 µs covers those gaps, so
     * that neither side's NIC pays a wake-up per window. A longer one gains nothing more and keeps an idle
     * device spinning longer. 0 blocks at once.
     */
    public static final long NIC_THREAD_NANOS = Long.getLong("jrxe.nic.spinMicros", 200) * 1_000;
    /**
     * A program's thread that runs an invoked NIC while it waits for a completion event: as long as the
     * tools' completion waits yield before they park ({@link BackoffIdle#YIELD_NANOS}), for the same
     * reason: a wake-up that comes tens of microseconds late on a busy 2-core machine.
     */
    public static final long EVENT_WAITER_NANOS = Long.getLong("jrxe.invoker.waiterYieldMicros", 1_000) * 1_000;

    private final long windowNanos;
    private long idleSince;
    private boolean idle;

    /** A window of {@code windowNanos} after the last work (0: block at once). */
    public PollWindow(long windowNanos) {
        this.windowNanos = windowNanos;
    }

    /** Work was done, or the thread just woke from blocking: the window starts again at the next idle look. */
    public void worked() {
        idle = false;
    }

    /**
     * A look that found no work: yields the CPU and returns true while the window lasts, false once it is
     * over (the caller blocks).
     */
    public boolean idle(long nowNanos) {
        if (!idle) {
            idle = true;
            idleSince = nowNanos;
        }
        if (nowNanos - idleSince < windowNanos) {
            Thread.yield();
            return true;
        }
        return false;
    }
}
