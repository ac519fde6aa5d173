package io.jrxe.rnic.queue;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A completion channel (ibv_comp_channel): armed CQs post an event here when a completion
 * arrives, and the application blocks until one does (ibv_get_cq_event). Blocking is its
 * purpose, so a lock and a condition are right here; the data path's rings never touch it
 * unless a CQ was armed.
 */
public final class CompletionChannel {
    private final int handle;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition nonEmpty = lock.newCondition();
    private final ArrayDeque<CompletionQueue> events = new ArrayDeque<>();
    private boolean closed;

    public CompletionChannel(int handle) {
        this.handle = handle;
    }

    public int handle() {
        return handle;
    }

    void signal(CompletionQueue cq) {
        lock.lock();
        try {
            events.addLast(cq);
            nonEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for the next CQ event.
     *
     * @return the CQ that fired, or null when the timeout passed or the channel was closed
     */
    public CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        lock.lock();
        try {
            while (events.isEmpty() && !closed) {
                if (nanos <= 0) {
                    return null;
                }
                nanos = nonEmpty.awaitNanos(nanos);
            }
            return events.pollFirst();
        } finally {
            lock.unlock();
        }
    }

    /** True when await would return at once: an event waits, or the channel is closed. */
    public boolean ready() {
        lock.lock();
        try {
            return !events.isEmpty() || closed;
        } finally {
            lock.unlock();
        }
    }

    /** Events waiting (fired but not yet taken). */
    public int pending() {
        lock.lock();
        try {
            return events.size();
        } finally {
            lock.unlock();
        }
    }

    public void close() {
        lock.lock();
        try {
            closed = true;
            nonEmpty.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "completion channel " + handle;
    }
}
