package io.jrxe.rnic.cm;

/**
 * Where the CM hands its events, on the NIC thread: a {@link CmEventQueue} that any thread polls,
 * or a librdmacm-shaped layer that turns them into its own events at once. It must not block or
 * call back into the CM.
 */
@FunctionalInterface
public interface CmEventSink {
    void post(CmEvent event);
}
