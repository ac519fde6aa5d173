package io.jrxe.verbs;

import java.util.concurrent.TimeUnit;

/** A completion channel (ibv_comp_channel): blocks until an armed CQ gets a completion. */
public interface CompChannel extends AutoCloseable {
    /** The CQ whose event fired, or null when the timeout passed first (ibv_get_cq_event). */
    Cq awaitEvent(long timeout, TimeUnit unit) throws VerbsException, InterruptedException;

    @Override
    void close() throws VerbsException;
}
