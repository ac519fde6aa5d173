package io.jrxe.wire.dissect;

import io.jrxe.wire.port.Ipv6Text;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Small shared renderings of addresses and numbers for the dissector's outputs. */
public final class Formats {
    private Formats() {
    }

    /**
     * An IPv4 address dotted, an IPv6 address in RFC 5952's short form (fd77::2, ::ffff:10.77.0.2), as tshark
     * prints them.
     */
    public static String ip(byte[] address) {
        if (address.length == 4) {
            try {
                return InetAddress.getByAddress(address).getHostAddress();
            } catch (UnknownHostException e) {
                throw new IllegalArgumentException("bad address length " + address.length, e);
            }
        }
        return Ipv6Text.of(address);
    }

    public static String mac(long mac) {
        StringBuilder sb = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            if (sb.length() > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x", (mac >>> shift) & 0xFF));
        }
        return sb.toString();
    }

    static String hex32(int value) {
        return String.format("0x%08x", value);
    }

    static String hex64(long value) {
        return String.format("0x%016x", value);
    }

    static String qpn(int qpn) {
        return String.format("0x%06x", qpn);
    }

    public static String time(long nanos) {
        return String.format("%d.%09d", Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
