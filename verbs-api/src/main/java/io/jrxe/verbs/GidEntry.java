package io.jrxe.verbs;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * One GID table entry: a 16-byte GID (for RoCE, an IPv6 address or an IPv4-mapped one,
 * ::ffff:a.b.c.d), its type and the address it stands for.
 */
public record GidEntry(int index, byte[] gid, GidType type) {
    /** Checks that the GID has 16 bytes, and keeps a copy of them. */
    public GidEntry {
        if (gid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes, not " + gid.length);
        }
        gid = gid.clone();
    }

    /** A copy of the GID's 16 bytes: what a peer puts in its AddressVector. */
    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** The GID of an address: IPv6 as is, IPv4 mapped (::ffff:a.b.c.d). */
    public static byte[] gidOf(InetAddress address) {
        byte[] gid = new byte[16];
        if (address instanceof Inet4Address) {
            gid[10] = (byte) 0xFF;
            gid[11] = (byte) 0xFF;
            System.arraycopy(address.getAddress(), 0, gid, 12, 4);
        } else {
            System.arraycopy(address.getAddress(), 0, gid, 0, 16);
        }
        return gid;
    }

    /** True when the GID is an IPv4-mapped IPv6 address. */
    public static boolean isIpv4Mapped(byte[] gid) {
        for (int i = 0; i < 10; i++) {
            if (gid[i] != 0) {
                return false;
            }
        }
        return gid[10] == (byte) 0xFF && gid[11] == (byte) 0xFF;
    }

    /** The IP address a RoCEv2 GID stands for (IPv4 for a mapped GID). */
    public static InetAddress addressOf(byte[] gid) {
        try {
            return isIpv4Mapped(gid) ? InetAddress.getByAddress(Arrays.copyOfRange(gid, 12, 16))
                    : Inet6Address.getByAddress(null, gid, null);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not a GID: " + HexFormat.of().formatHex(gid), e);
        }
    }

    /** The GID as ibv_devinfo prints it: eight groups of four hex digits. */
    public static String format(byte[] gid) {
        StringBuilder sb = new StringBuilder(39);
        for (int i = 0; i < 16; i += 2) {
            if (i > 0) {
                sb.append(':');
            }
            sb.append(String.format("%02x%02x", gid[i], gid[i + 1]));
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GidEntry g && g.index == index && g.type == type && Arrays.equals(g.gid, gid);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * index + Arrays.hashCode(gid)) + type.hashCode();
    }

    @Override
    public String toString() {
        return String.format("GID[%d] %s %s (%s)", index, format(gid), type.label(), addressOf(gid).getHostAddress());
    }
}
