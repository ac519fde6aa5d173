package io.jrxe.wire.dissect;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** Small shared renderings of addresses and numbers for the dissector's outputs. */
final class Formats {
    private Formats() {
    }

    static String ip(byte[] address) {
        try {
            return InetAddress.getByAddress(address).getHostAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("bad address length " + address.length, e);
        }
    }

    static String mac(long mac) {
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

    static String time(long nanos) {
        return String.format("%d.%09d", Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
    }
}
