package io.jrxe.rnic;

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

    /** The errno values a verbs provider returns, with their Linux numbers. */
    public enum Errno {
        EPERM(1),
        ENOENT(2),
        EAGAIN(11),
        ENOMEM(12),
        EACCES(13),
        EFAULT(14),
        EBUSY(16),
        EEXIST(17),
        ENODEV(19),
        EINVAL(22),
        ENOSPC(28),
        ENOSYS(38),
        EOPNOTSUPP(95);

        private final int value;

        Errno(int value) {
            this.value = value;
        }

        public int value() {
            return value;
        }
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
