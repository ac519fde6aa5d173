package io.jrxe.wire.port;

import java.io.IOException;

/**
 * How a thread with no work waits for a {@link PolledPort}'s next packet: a selector over its sockets, or a
 * shared-memory ring looked at with a growing pause. One thread waits at a time; any thread may wake it.
 */
public interface PortWaiter extends AutoCloseable {
    /**
     * Blocks until the port may have a packet, {@code timeoutNanos} pass (0: no limit) or {@link #wake} is called.
     * It may return early; it never returns late by more than the waiter's granularity (a millisecond for a selector).
     *
     * @throws IOException when the wait itself failed (the caller pauses before it tries again)
     */
    void await(long timeoutNanos) throws IOException;

    /** Ends a wait in progress, or the next one if none is. */
    void wake();

    @Override
    void close();
}
