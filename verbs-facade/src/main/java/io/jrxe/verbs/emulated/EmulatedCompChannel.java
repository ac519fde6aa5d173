package io.jrxe.verbs.emulated;

import io.jrxe.rnic.queue.CompletionChannel;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

final class EmulatedCompChannel implements CompChannel {
    private final EmulatedDevice device;
    private final CompletionChannel channel;
    private final Map<CompletionQueue, Cq> cqs = new ConcurrentHashMap<>();

    EmulatedCompChannel(EmulatedDevice device, CompletionChannel channel) {
        this.device = device;
        this.channel = channel;
    }

    CompletionChannel channel() {
        return channel;
    }

    void attach(CompletionQueue cq, Cq facade) {
        cqs.put(cq, facade);
    }

    @Override
    public Cq awaitEvent(long timeout, TimeUnit unit) throws InterruptedException {
        device.leave(); // an invoked NIC must not wait for this sleeping thread to run it
        CompletionQueue cq = channel.await(timeout, unit);
        return cq == null ? null : cqs.get(cq);
    }

    @Override
    public void close() {
        channel.close();
    }
}
