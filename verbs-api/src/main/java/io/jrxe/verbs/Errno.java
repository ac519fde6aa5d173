package io.jrxe.verbs;

/**
 * The errno values a verbs provider returns, with their Linux numbers: a refused verb carries
 * one ({@link VerbsException#errno()}), so that a program can compare jrxe with a real device.
 */
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

    /** The Linux errno number (EINVAL is 22). */
    public int value() {
        return value;
    }
}
