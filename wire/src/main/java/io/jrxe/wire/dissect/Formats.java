package io.jrxe.wire.dissect;

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
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (address[2 * i] & 0xFF) << 8 | (address[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 1;
        for (int i = 0; i < 8; ) {
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j == i ? i + 1 : j;
        }
        if (bestStart == 0 && (bestLength == 6 || bestLength == 5 && groups[5] == 0xFFFF)) {
            // IPv4-compatible ::a.b.c.d and IPv4-mapped ::ffff:a.b.c.d keep a dotted tail (RFC 5952 section 5),
            // as tshark and inet_ntop print them.
            return (bestLength == 6 ? "::" : "::ffff:") + (address[12] & 0xFF) + '.' + (address[13] & 0xFF) + '.'
                    + (address[14] & 0xFF) + '.' + (address[15] & 0xFF);
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLength - 1;
                continue;
            }
            if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
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
