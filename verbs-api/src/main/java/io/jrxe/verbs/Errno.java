package io.jrxe.verbs;

/**
 * The errno values a verbs provider returns, with their Linux numbers: a refused verb carries
 * one ({@link VerbsException#errno()}), so that a program can compare jrxe with a real device.
 */
public enum Errno {
    /** Operation not permitted. */
    EPERM(1),
    /** No such object (a handle or number that names nothing). */
    ENOENT(2),
    /** Try again: a resource is busy for now. */
    EAGAIN(11),
    /** Out of memory, or a queue or table is full. */
    ENOMEM(12),
    /** Access denied. */
    EACCES(13),
    /** A bad address. */
    EFAULT(14),
    /** Still in use: for example a PD with objects in it. */
    EBUSY(16),
    /** Exists already. */
    EEXIST(17),
    /** No such device. */
    ENODEV(19),
    /** An invalid argument: the message names the rule. */
    EINVAL(22),
    /** No space left. */
    ENOSPC(28),
    /** Not implemented. */
    ENOSYS(38),
    /** The device does not support the operation. */
    EOPNOTSUPP(95),
    /** The address is taken (by another RoCE device), or is not an address of this host. */
    EADDRINUSE(98),
    /** No device of this host has the address. */
    EADDRNOTAVAIL(99),
    /** The network is unreachable: no device can reach the destination. */
    ENETUNREACH(101),
    /** The identifier is connected already. */
    EISCONN(106),
    /** The identifier is not connected. */
    ENOTCONN(107),
    /** The peer did not answer in time. */
    ETIMEDOUT(110),
    /** The peer refused the connection. */
    ECONNREFUSED(111);

    private final int value;

    Errno(int value) {
        this.value = value;
    }

    /** The Linux errno number (EINVAL is 22). */
    public int value() {
        return value;
    }
}
