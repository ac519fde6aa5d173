package io.jrxe.tools.common;

import io.jrxe.wire.port.Ipv6Text;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.util.HexFormat;

/** GIDs as the tools print and send them. */
public final class Gids {
    private static final HexFormat HEX = HexFormat.of();

    private Gids() {
    }

    /** A GID as inet_ntop(AF_INET6) prints it, which is what ibv_rc_pingpong shows ({@link Ipv6Text}). */
    public static String ntop(byte[] gid) {
        return Ipv6Text.of(gid);
    }

    /** An IP address as inet_ntop prints it: IPv6 in its short form (Java's getHostAddress writes every group). */
    public static String ip(InetAddress address) {
        return address instanceof Inet6Address ? Ipv6Text.of(address.getAddress()) : address.getHostAddress();
    }

    /** The 32 hex digits rdma-core's examples send for a GID (its 16 bytes in order). */
    public static String wire(byte[] gid) {
        return HEX.formatHex(gid);
    }

    /** The GID a 32-hex-digit wire string stands for. */
    public static byte[] fromWire(String hex32) {
        if (hex32.length() != 32) {
            throw new IllegalArgumentException("a wire GID has 32 hex digits, not " + hex32.length() + ": " + hex32);
        }
        try {
            return HEX.parseHex(hex32);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a wire GID (32 hex digits): " + hex32, e);
        }
    }

    /** True when the GID's interface id (its last 8 bytes) is not zero: rdma-core's test for "a GID was sent". */
    public static boolean hasInterfaceId(byte[] gid) {
        for (int i = 8; i < 16; i++) {
            if (gid[i] != 0) {
                return true;
            }
        }
        return false;
    }
}
