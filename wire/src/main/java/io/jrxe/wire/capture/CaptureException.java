package io.jrxe.wire.capture;

/**
 * A capture file could not be read or written. The message is one sentence meant for the user
 * (it names the file and what is wrong with it), so tools print it as it is, without a stack trace.
 */
public class CaptureException extends RuntimeException {
    public CaptureException(String message) {
        super(message);
    }

    public CaptureException(String message, Throwable cause) {
        super(message, cause);
    }
}
