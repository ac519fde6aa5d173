package io.jrxe.wire.port;

/** A port could not join a multicast group; the message says why, in a sentence. */
public final class MulticastJoinException extends Exception {
    public MulticastJoinException(String message) {
        super(message);
    }

    public MulticastJoinException(String message, Throwable cause) {
        super(message, cause);
    }
}
