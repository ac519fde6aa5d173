package io.jrxe.verbs;

import io.jrxe.rnic.RnicException;

/**
 * A verb that was refused: the message names the rule that was broken; {@link #errno()} is what
 * libibverbs would have returned, so programs can compare jrxe and a real device.
 */
public class VerbsException extends Exception {
    private final RnicException.Errno errno;

    public VerbsException(RnicException.Errno errno, String message) {
        super(message);
        this.errno = errno;
    }

    public VerbsException(RnicException cause) {
        super(cause.getMessage(), cause);
        this.errno = cause.errno();
    }

    public RnicException.Errno errno() {
        return errno;
    }
}
