package io.jrxe.rnic;

import io.jrxe.verbs.Errno;

/**
 * A control verb that was refused. The message names the rule that was broken and the values
 * involved; the {@link Errno} is what a real driver would have returned, so the native and the
 * emulated provider can be compared.
 */
public class RnicException extends Exception {
    private final Errno errno;

    public RnicException(Errno errno, String message) {
        super(message);
        this.errno = errno;
    }

    public Errno errno() {
        return errno;
    }

    public static RnicException invalid(String message) {
        return new RnicException(Errno.EINVAL, message);
    }

    public static RnicException exhausted(String message) {
        return new RnicException(Errno.ENOMEM, message);
    }

    public static RnicException busy(String message) {
        return new RnicException(Errno.EBUSY, message);
    }
}
