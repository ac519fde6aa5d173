package io.jrxe.wire.time;

/**
 * The only way engines see time: a clock and a scheduler. The simulated network implements
 * it with virtual time (a failing seed replays exactly); the UDP transport with its event
 * loop's timers. Engines never read the wall clock and never sleep.
 */
public interface NicTime {
    /**
     * {@link #timerGranularityNanos} of a clock whose timers a real thread runs: Linux lets a thread's timer fire up
     * to 50 us late (its default timer slack) and the thread runs its timers between other work; twice that covers
     * both on a busy host.
     */
    long REAL_THREAD_TIMER_GRANULARITY_NANOS = 100_000;

    /** Monotonic nanoseconds. */
    long nanoTime();

    /**
     * Runs the task on the NIC thread after the delay. There is no cancel: engines keep a
     * deadline and check it when the task runs (a lazy timer), so re-arming a timer for every
     * packet costs a field write, not a scheduled task.
     */
    void schedule(long delayNanos, Runnable task);

    /** Runs the task on the NIC thread as soon as possible (a doorbell). */
    void execute(Runnable task);

    /**
     * How late a timer of {@link #schedule} may fire as a matter of course: 0 in virtual time; on a real thread, what
     * the operating system's timers and the loop's other work add. A rate held by timers keeps that much of its time
     * (a QP paced at 10 Gbit/s could not send faster than one wake's packets per late wake otherwise).
     */
    default long timerGranularityNanos() {
        return 0;
    }
}
