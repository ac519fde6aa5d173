package io.jrxe.verbs.cm;

import io.jrxe.verbs.VerbsException;

import java.util.concurrent.TimeUnit;

/**
 * Where the events of a set of communication identifiers arrive (librdmacm's
 * rdma_event_channel). Every identifier belongs to the channel that made it, and the identifiers
 * a listener makes for connection requests to the listener's channel. Closing the channel
 * destroys the identifiers still open on it.
 */
public interface CmEventChannel extends AutoCloseable {
    /** rdma_create_id: a new identifier in {@code space}; {@code userContext} is kept for the program, may be null. */
    CmId createId(PortSpace space, Object userContext) throws VerbsException;

    /** The oldest event not yet taken, or null when none is waiting. */
    CmEvent pollEvent() throws VerbsException;

    /** rdma_get_cm_event with a timeout: the oldest event, waiting for one up to the timeout; null when none came. */
    CmEvent getEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException;

    /** rdma_destroy_event_channel, after destroying the identifiers still open on it. */
    @Override
    void close() throws VerbsException;
}
