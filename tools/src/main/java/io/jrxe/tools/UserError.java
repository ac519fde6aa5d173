package io.jrxe.tools;

/** A failure caused by the user's input or environment, with a message that says what to do. */
public class UserError extends RuntimeException {
    public UserError(String message) {
        super(message);
    }

    public UserError(String message, Throwable cause) {
        super(message, cause);
    }
}
