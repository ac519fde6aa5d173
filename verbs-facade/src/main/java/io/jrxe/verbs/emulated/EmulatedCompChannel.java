package io.jrxe.verbs.emulated;

import io.jrxe.rnic.queue.CompletionChannel;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

final class EmulatedCompChannel implements CompChannel {
    private final CompletionChannel channel;
    private final Map<CompletionQueue, Cq> cqs = new ConcurrentHashMap<>();

    EmulatedCompChannel(CompletionChannel channel) {
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
        CompletionQueue cq = channel.await(timeout, unit);
        return cq == null ? null : cqs.get(cq);
    }

    @Override
    public void close() {
        channel.close();
    }
}
