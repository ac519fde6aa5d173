package io.jrxe.verbs.emulated;

import io.jrxe.rnic.queue.CompletionChannel;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

final class EmulatedCompChannel implements CompChannel, OwnedByContext {
    private final EmulatedDevice device;
    private final CompletionChannel channel;
    private final Map<CompletionQueue, Cq> cqs = new ConcurrentHashMap<>();
    /** Made once: a method reference that captures the channel is a new object each time it is evaluated. */
    private final BooleanSupplier eventReady;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    EmulatedCompChannel(EmulatedDevice device, CompletionChannel channel) {
        this.device = device;
        this.channel = channel;
        this.eventReady = channel::ready;
    }

    CompletionChannel channel() {
        return channel;
    }

    void attach(CompletionQueue cq, Cq facade) {
        cqs.put(cq, facade);
    }

    @Override
    public Cq awaitEvent(long timeout, TimeUnit unit) throws InterruptedException {
        long nanos = unit.toNanos(timeout);
        if (device.runUntil(eventReady, nanos)) {
            // An invoked NIC ran on this thread until the event came (or the time passed): take it, if any.
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a completion event");
            }
            nanos = 0;
        }
        CompletionQueue cq = channel.await(nanos, TimeUnit.NANOSECONDS);
        return cq == null ? null : cqs.get(cq);
    }

    @Override
    public boolean isClosed() {
        return closed.get();
    }

    /** Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            channel.close();
        }
    }

    @Override
    public String toString() {
        return channel.toString();
    }
}
