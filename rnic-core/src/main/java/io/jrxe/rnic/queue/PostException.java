package io.jrxe.rnic.queue;

import io.jrxe.rnic.RnicException;
import io.jrxe.verbs.Errno;

/**
 * A post_send or post_recv that was refused: {@link #badIndex()} is the position in the chain of
 * the first work request not posted (ibv_post_send's bad_wr); the ones before it were posted.
 */
public final class PostException extends RnicException {
    private final int badIndex;

    public PostException(Errno errno, int badIndex, String message) {
        super(errno, "work request " + badIndex + " of the chain: " + message);
        this.badIndex = badIndex;
    }

    public int badIndex() {
        return badIndex;
    }
}
