package io.jrxe.rnic.cm;

/**
 * Where the CM hands its events, on the NIC thread: a {@link CmEventQueue} that any thread polls,
 * or a librdmacm-shaped layer that turns them into its own events at once. It must not block or
 * call back into the CM: what it cannot take, it says, and the CM acts on that itself.
 */
@FunctionalInterface
public interface CmEventSink {
    /**
     * @return whether the event was taken; false for a CONNECT_REQUEST means nobody will answer it
     *         (its listener is gone), and the CM refuses the request
     */
    boolean post(CmEvent event);
}
