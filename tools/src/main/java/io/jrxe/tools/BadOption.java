package io.jrxe.tools;

/**
 * A bad option or value found by a command's own checks (not by picocli's parser): the message names the option,
 * the value and what is allowed. Like picocli's own complaints it exits 1 with one line and a pointer to --help,
 * where a {@link UserError} after the command started exits 2.
 */
public class BadOption extends UserError {
    public BadOption(String message) {
        super(message);
    }

    public BadOption(String message, Throwable cause) {
        super(message, cause);
    }
}
