package io.jrxe.tools.common;

import java.util.HexFormat;

/** GIDs as the tools print and send them. */
public final class Gids {
    private static final HexFormat HEX = HexFormat.of();

    private Gids() {
    }

    /**
     * A GID as inet_ntop(AF_INET6) prints it, which is what ibv_rc_pingpong shows: the longest run of two or
     * more zero groups becomes "::", and an IPv4-mapped (::ffff:a.b.c.d) or IPv4-compatible (::a.b.c.d) GID
     * keeps a dotted tail, as glibc prints them.
     */
    public static String ntop(byte[] gid) {
        int[] groups = new int[8];
        for (int i = 0; i < 8; i++) {
            groups[i] = (gid[2 * i] & 0xFF) << 8 | (gid[2 * i + 1] & 0xFF);
        }
        int bestStart = -1;
        int bestLength = 0;
        for (int i = 0; i < 8; ) {
            if (groups[i] != 0) {
                i++;
                continue;
            }
            int j = i;
            while (j < 8 && groups[j] == 0) {
                j++;
            }
            if (j - i > bestLength) {
                bestStart = i;
                bestLength = j - i;
            }
            i = j;
        }
        if (bestLength < 2) {
            bestStart = -1;
        }
        if (bestStart == 0 && (bestLength == 6 || (bestLength == 5 && groups[5] == 0xFFFF))) {
            return (bestLength == 5 ? "::ffff:" : "::") + (gid[12] & 0xFF) + '.' + (gid[13] & 0xFF) + '.' + (gid[14] & 0xFF)
                    + '.' + (gid[15] & 0xFF);
        }
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 8; i++) {
            if (i == bestStart) {
                sb.append("::");
                i += bestLength - 1;
                continue;
            }
            if (i > 0 && i != bestStart + bestLength) {
                sb.append(':');
            }
            sb.append(Integer.toHexString(groups[i]));
        }
        return sb.toString();
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

    /** True for ::ffff:a.b.c.d. */
    public static boolean isIpv4Mapped(byte[] gid) {
        for (int i = 0; i < 10; i++) {
            if (gid[i] != 0) {
                return false;
            }
        }
        return gid[10] == (byte) 0xFF && gid[11] == (byte) 0xFF;
    }
}
