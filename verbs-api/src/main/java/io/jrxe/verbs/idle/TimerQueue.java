package io.jrxe.verbs.idle;

import java.util.PriorityQueue;

/**
 * The timers of a duty cycle that whoever holds it runs (an invoked NIC): tasks due at a nanoTime, run in
 * deadline order (and in the order they were added for one deadline) when they are due. Only the holder of
 * the duty cycle touches it.
 */
public final class TimerQueue {
    private record Timer(long deadline, long sequence, Runnable task) implements Comparable<Timer> {
        @Override
        public int compareTo(Timer o) {
            int c = Long.compare(deadline, o.deadline);
            return c != 0 ? c : Long.compare(sequence, o.sequence);
        }
    }

    /**
     * Never due, and always in the queue, so that the queue's head is never null. A busy NIC always has a timer set (an
     * RC QP's ACK timer), and C2 compiled the duty cycle for that: the first time the queue ran empty, a null check it
     * had left out trapped and threw the compiled duty cycle away, to be compiled again while the NIC worked.
     */
    private static final Timer NEVER = new Timer(Long.MAX_VALUE, Long.MAX_VALUE, () -> { });
    private final PriorityQueue<Timer> timers = new PriorityQueue<>();
    private long sequence;

    /** A queue with no timer. */
    public TimerQueue() {
        timers.add(NEVER);
    }

    /** Adds a task due at {@code deadline} (a nanoTime). */
    public void add(long deadline, Runnable task) {
        timers.add(new Timer(deadline, sequence++, task));
    }

    /** Takes the next task due at or before {@code now}, or null. */
    public Runnable takeDue(long now) {
        Timer t = timers.peek();
        if (t.deadline > now || t == NEVER) {
            return null;
        }
        timers.poll();
        return t.task;
    }

    /** The earliest deadline, or Long.MAX_VALUE when no timer is set. */
    public long nextDeadline() {
        return timers.peek().deadline;
    }

    /** Whether no timer is set. */
    public boolean isEmpty() {
        return timers.size() == 1;
    }
}
