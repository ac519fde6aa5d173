package io.jrxe.wire.sim;

import io.jrxe.verbs.idle.TimerQueue;
import io.jrxe.wire.time.NicTime;

import java.util.function.BooleanSupplier;

/**
 * Virtual time for the simulated network: a queue of tasks ordered by due time and then by the
 * order they were scheduled in, run on the calling thread. Nothing depends on the wall clock,
 * so a run replays exactly.
 */
public final class VirtualTime implements NicTime {
    private final TimerQueue tasks = new TimerQueue();
    private long now;
    private long executed;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        tasks.add(now + Math.max(0, delayNanos), task);
    }

    @Override
    public void execute(Runnable task) {
        schedule(0, task);
    }

    public boolean idle() {
        return tasks.isEmpty();
    }

    public long executed() {
        return executed;
    }

    /** Runs the next task, advancing time to when it is due; false when there is none. */
    public boolean step() {
        if (tasks.isEmpty()) {
            return false;
        }
        now = tasks.nextDeadline();
        Runnable task = tasks.takeDue(now);
        executed++;
        task.run();
        return true;
    }

    /**
     * Runs tasks until {@code done} is true, no task is left, or virtual time passes
     * {@code deadline} nanoseconds from now.
     *
     * @return true when {@code done} became true
     */
    public boolean runUntil(BooleanSupplier done, long deadlineNanos) {
        long end = now + deadlineNanos;
        while (!done.getAsBoolean()) {
            if (tasks.nextDeadline() > end) {
                return done.getAsBoolean();
            }
            step();
        }
        return true;
    }

    /** Runs every task due within the next {@code nanos}, then sets the clock to that time. */
    public void runFor(long nanos) {
        long end = now + nanos;
        while (tasks.nextDeadline() <= end) {
            step();
        }
        now = end;
    }
}
