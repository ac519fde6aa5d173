package io.jrxe.wire.port;

/**
 * An IPv6 address (or a GID) as text in RFC 5952's short form, which is what glibc's inet_ntop, tshark and
 * ibv_rc_pingpong print: lower-case hex groups without leading zeros, the longest run of two or more zero groups
 * (the first on a tie) as "::", never a single zero group; an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible
 * (::a.b.c.d) address keeps a dotted tail (RFC 5952 section 5). The dissector and the tools both print with it.
 */
public final class Ipv6Text {
    private Ipv6Text() {
    }

    /** The short form of the 16 bytes {@code address}. */
    public static String of(byte[] address) {
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
}
