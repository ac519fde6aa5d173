package io.jrxe.wire.port.raw;

/**
 * How a device's packets leave, and so whether peers other than jrxe can check their ICRC.
 * Over IPv4 the ICRC covers the IP identification: a raw socket lets jrxe choose it (and compute
 * the ICRC with it); a UDP socket leaves it to the kernel, which numbers even DF datagrams, so
 * jrxe's ICRC (computed with 0) is right for jrxe peers alone, which solve for it. Over IPv6
 * every byte the ICRC covers is known to a UDP socket.
 *
 * @param reason why the raw socket is not used (UDP over IPv4), else null
 */
public record TransmitPath(Kind kind, String reason) {
    public enum Kind { RAW_IPV4, UDP_IPV4, UDP_IPV6, SHARED_MEMORY }

    public static final TransmitPath RAW = new TransmitPath(Kind.RAW_IPV4, null);
    public static final TransmitPath IPV6 = new TransmitPath(Kind.UDP_IPV6, null);
    /** The shared-memory wire: the UDP datagrams' bytes, carried between jrxe devices of one host through memory. */
    public static final TransmitPath SHARED_MEMORY = new TransmitPath(Kind.SHARED_MEMORY, null);

    /** The UDP fallback over IPv4, for this failure to open the raw socket. */
    public static TransmitPath udpIpv4(RawSocketUnavailableException why) {
        return new TransmitPath(Kind.UDP_IPV4, why.missingPrivilege() ? "no CAP_NET_RAW" : why.getMessage());
    }

    /** What the tools print: one line, the same at device start and in devinfo. */
    public String describe() {
        return switch (kind) {
            case RAW_IPV4 -> "IPv4 transmit: raw socket (IP identification chosen by jrxe; loopback peers, jrxe alone, get UDP with GSO)";
            case UDP_IPV4 -> "IPv4 transmit: UDP socket (" + reason + "): IPv4 peers other than jrxe will drop its packets";
            case UDP_IPV6 -> "IPv6 transmit: UDP socket (every byte the ICRC covers is known)";
            case SHARED_MEMORY -> "transmit: shared memory (jrxe devices of this host only; ICRCs as from a UDP socket)";
        };
    }

    /** False when a kernel rxe peer it reaches would drop this device's packets as corrupt: UDP over IPv4 only. */
    public boolean kernelPeersAccept() {
        return kind != Kind.UDP_IPV4;
    }

    /**
     * What a device on an IPv4 (or IPv6) address would use in this process, found by opening and
     * closing a raw socket: for devinfo, which binds no port.
     */
    public static TransmitPath probe(boolean ipv6, RawSocketOpener opener) {
        if (ipv6) {
            return IPV6;
        }
        try {
            LinuxSockets.close(opener.open());
            return RAW;
        } catch (RawSocketUnavailableException e) {
            return udpIpv4(e);
        }
    }
}
