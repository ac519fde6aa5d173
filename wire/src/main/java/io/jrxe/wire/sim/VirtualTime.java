package io.jrxe.wire.sim;

import io.jrxe.wire.time.NicTime;

import java.util.PriorityQueue;
import java.util.function.BooleanSupplier;

/**
 * Virtual time for the simulated network: a queue of tasks ordered by due time and then by the
 * order they were scheduled in, run on the calling thread. Nothing depends on the wall clock,
 * so a run replays exactly.
 */
public final class VirtualTime implements NicTime {
    private record Task(long due, long sequence, Runnable action) implements Comparable<Task> {
        @Override
        public int compareTo(Task o) {
            int c = Long.compare(due, o.due);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }

    private final PriorityQueue<Task> tasks = new PriorityQueue<>();
    private long now;
    private long sequence;
    private long executed;

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void schedule(long delayNanos, Runnable task) {
        tasks.add(new Task(now + Math.max(0, delayNanos), sequence++, task));
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
        Task t = tasks.poll();
        if (t == null) {
            return false;
        }
        now = t.due;
        executed++;
        t.action.run();
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
            Task next = tasks.peek();
            if (next == null || next.due > end) {
                return done.getAsBoolean();
            }
            step();
        }
        return true;
    }

    /** Runs every task due within the next {@code nanos}, then sets the clock to that time. */
    public void runFor(long nanos) {
        long end = now + nanos;
        while (!tasks.isEmpty() && tasks.peek().due <= end) {
            step();
        }
        now = end;
    }
}
