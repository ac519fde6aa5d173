package io.jrxe.verbs;

/**
 * A verb that was refused: the message names the rule that was broken; {@link #errno()} is what
 * libibverbs would have returned, so programs can compare jrxe and a real device.
 */
public class VerbsException extends Exception {
    /** What libibverbs would have returned. */
    private final Errno errno;

    /** A refusal with its errno and a message that names the rule that was broken. */
    public VerbsException(Errno errno, String message) {
        super(message);
        this.errno = errno;
    }

    /** A refusal that a provider's own exception explains: its message is kept, and it is the cause. */
    public VerbsException(Errno errno, Throwable cause) {
        super(cause.getMessage(), cause);
        this.errno = errno;
    }

    /** What libibverbs would have returned for the same call. */
    public Errno errno() {
        return errno;
    }
}
