package io.jrxe.verbs;

import java.net.Inet4Address;
import java.net.InetAddress;

/**
 * Multicast on RoCEv2: a group is an IP multicast address, and its GID is that address, IPv6 as it is
 * ({@code ff0e::1:2}) and IPv4 mapped ({@code ::ffff:239.1.2.3}). A datagram for the group goes to that address
 * with the destination QP number {@link #QPN}, and every QP attached to the group ({@link Qp#attachMcast}) on
 * each device that receives it gets a copy.
 */
public final class MulticastGid {
    /** The destination QP number of a multicast datagram (IBTA's permissive QPN): a UD SEND's remoteQpn. */
    public static final int QPN = 0xFFFFFF;

    private MulticastGid() {
    }

    /**
     * Whether the GID names a multicast group, as the kernel's rdma_is_multicast_addr decides: its first byte is
     * 0xff, or it is IPv4-mapped and the IPv4 address is in 224.0.0.0/4.
     */
    public static boolean isMulticast(byte[] gid) {
        if (gid == null || gid.length != 16) {
            return false;
        }
        if (gid[0] == (byte) 0xFF) {
            return true;
        }
        for (int i = 0; i < 10; i++) {
            if (gid[i] != 0) {
                return false;
            }
        }
        return gid[10] == (byte) 0xFF && gid[11] == (byte) 0xFF && (gid[12] & 0xF0) == 0xE0;
    }

    /** The GID of a multicast IP address (IPv4 mapped into ::ffff:0:0/96). */
    public static byte[] of(InetAddress group) {
        if (!group.isMulticastAddress()) {
            throw new IllegalArgumentException(group.getHostAddress() + " is not a multicast address (224.0.0.0/4 or ff00::/8)");
        }
        byte[] ip = group.getAddress();
        byte[] gid = new byte[16];
        if (group instanceof Inet4Address) {
            gid[10] = (byte) 0xFF;
            gid[11] = (byte) 0xFF;
            System.arraycopy(ip, 0, gid, 12, 4);
        } else {
            System.arraycopy(ip, 0, gid, 0, 16);
        }
        return gid;
    }
}
