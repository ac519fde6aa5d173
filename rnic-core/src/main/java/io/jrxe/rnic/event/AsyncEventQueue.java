package io.jrxe.rnic.event;

import io.jrxe.verbs.AsyncEvent;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The device's asynchronous events (ibv_get_async_event): the NIC thread posts, the
 * application polls or blocks. Events are rare, so a blocking queue is fine here. Bounded: a
 * program that never reads its events loses the oldest, not memory.
 */
public final class AsyncEventQueue {
    private static final int CAPACITY = 4096;
    private final LinkedBlockingQueue<AsyncEvent> events = new LinkedBlockingQueue<>(CAPACITY);

    public void post(AsyncEvent event) {
        while (!events.offer(event)) {
            events.poll();
        }
    }

    /** The next event, or null when there is none. */
    public AsyncEvent poll() {
        return events.poll();
    }

    /** Waits up to the timeout for an event; null when none came. */
    public AsyncEvent await(long timeout, TimeUnit unit) throws InterruptedException {
        return events.poll(timeout, unit);
    }

    public int size() {
        return events.size();
    }
}
