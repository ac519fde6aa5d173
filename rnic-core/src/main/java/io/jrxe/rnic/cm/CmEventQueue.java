package io.jrxe.rnic.cm;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Where the CM posts events (on the NIC thread) and the application polls them (on any thread):
 * librdmacm's event channel, without the file descriptor.
 */
public final class CmEventQueue implements CmEventSink {
    private final ConcurrentLinkedQueue<CmEvent> events = new ConcurrentLinkedQueue<>();

    @Override
    public boolean post(CmEvent event) {
        return events.add(event);
    }

    /** The oldest event not yet polled, or null. */
    public CmEvent poll() {
        return events.poll();
    }

    public boolean isEmpty() {
        return events.isEmpty();
    }
}
