package io.jrxe.wire.port.raw;

/**
 * A raw IPv4 socket could not be opened: the port then sends through its UDP socket. The errno
 * tells a missing privilege (EPERM, EACCES) from other failures; 0 when no system call failed
 * (native access denied, or the raw path switched off).
 */
public final class RawSocketUnavailableException extends Exception {
    private final int errno;

    public RawSocketUnavailableException(int errno, String reason) {
        super(reason);
        this.errno = errno;
    }

    public int errno() {
        return errno;
    }

    /** True when the process lacks CAP_NET_RAW (socket(2) said EPERM or EACCES). */
    public boolean missingPrivilege() {
        return errno == LinuxSockets.EPERM || errno == LinuxSockets.EACCES;
    }
}
