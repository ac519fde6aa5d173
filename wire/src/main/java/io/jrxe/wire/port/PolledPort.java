package io.jrxe.wire.port;

import java.io.IOException;

/**
 * A port that any thread may read, so that whichever thread holds an {@link InvokerLoop} serves it: UDP sockets read
 * without blocking, or a shared-memory ring. Only the loop's holder calls {@link #receive}.
 */
public interface PolledPort extends PacketPort {
    /**
     * Hands up to {@code max} packets that are waiting to the sink, without blocking; a burst that delivered any ends
     * with the sink's {@code burstEnd}.
     *
     * @return the packets read
     */
    int receive(int max);

    /**
     * Makes what a thread with nothing to do blocks in until this port may have a packet: the loop makes one and
     * closes it when it closes.
     *
     * @throws IOException when the port's readiness cannot be watched
     */
    PortWaiter openWaiter() throws IOException;
}
