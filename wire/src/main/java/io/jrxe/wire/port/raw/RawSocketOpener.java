package io.jrxe.wire.port.raw;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Opens the raw IPv4 socket a port transmits through: socket(AF_INET, SOCK_RAW, IPPROTO_RAW),
 * which sends IP packets whose header the caller wrote (IP_HDRINCL is implied) and receives
 * nothing, so receiving stays on the UDP socket. It needs CAP_NET_RAW. Tests inject openers
 * that fail, to see the fallback without dropping privileges.
 */
@FunctionalInterface
public interface RawSocketOpener {
    /**
     * The system property that chooses the IPv4 transmit path: {@code udp} turns the raw path off,
     * {@code raw} uses it for loopback peers too (by default they get the UDP sockets' GSO).
     */
    String PROPERTY = "jrxe.ipv4.transmit";

    /** {@code -Djrxe.ipv4.transmit=raw}: loopback peers get the raw path too. */
    static boolean rawToLoopbackAsked() {
        return "raw".equalsIgnoreCase(System.getProperty(PROPERTY, ""));
    }

    /**
     * @return the socket's file descriptor, which the caller owns and closes
     */
    int open() throws RawSocketUnavailableException;

    /** The real opener, unless {@code -Djrxe.ipv4.transmit=udp} asks for the UDP socket or the portable path is taken. */
    static RawSocketOpener system() {
        return () -> {
            if ("udp".equalsIgnoreCase(System.getProperty(PROPERTY, ""))) {
                throw new RawSocketUnavailableException(0, "-D" + PROPERTY + "=udp");
            }
            String unavailable = io.jrxe.verbs.spi.Platform.linuxOnlyUnavailable();
            if (unavailable == null) {
                unavailable = LinuxSockets.unavailableReason();
            }
            if (unavailable != null) {
                throw new RawSocketUnavailableException(0, unavailable);
            }
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment state = LinuxSockets.allocateCallState(arena);
                int fd = LinuxSockets.socket(state, LinuxSockets.AF_INET, LinuxSockets.SOCK_RAW | LinuxSockets.SOCK_CLOEXEC,
                        LinuxSockets.IPPROTO_RAW);
                if (fd < 0) {
                    int errno = LinuxSockets.errno(state);
                    throw new RawSocketUnavailableException(errno, "raw socket: " + LinuxSockets.describe(errno));
                }
                return fd;
            }
        };
    }

    /** An opener that always fails as socket(2) does without CAP_NET_RAW (for tests). */
    static RawSocketOpener denied() {
        return () -> {
            throw new RawSocketUnavailableException(LinuxSockets.EPERM, "raw socket: Operation not permitted");
        };
    }
}
