package io.jrxe.wire.port;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;

/**
 * A RoCEv2 endpoint: an IP address (IPv4 or IPv6) on UDP port 4791, and the 16-byte GID that
 * stands for it (IPv4 as ::ffff:a.b.c.d). Immutable; made once per QP or address handle, so
 * sending allocates nothing.
 */
public final class PeerAddress {
    public static final int ROCE_PORT = 4791;

    private final InetAddress address;
    private final byte[] ip;
    private final byte[] gid;
    private final InetSocketAddress socketAddress;
    private final boolean loopback;
    private final boolean multicast;

    private PeerAddress(InetAddress address, int port) {
        this.address = address;
        this.loopback = address.isLoopbackAddress();
        this.multicast = address.isMulticastAddress();
        this.ip = address.getAddress();
        this.gid = new byte[16];
        if (address instanceof Inet4Address) {
            gid[10] = (byte) 0xFF;
            gid[11] = (byte) 0xFF;
            System.arraycopy(ip, 0, gid, 12, 4);
        } else {
            System.arraycopy(ip, 0, gid, 0, 16);
        }
        this.socketAddress = new InetSocketAddress(address, port);
    }

    public static PeerAddress of(InetAddress address) {
        return new PeerAddress(address, ROCE_PORT);
    }

    public static PeerAddress of(InetAddress address, int udpPort) {
        return new PeerAddress(address, udpPort);
    }

    public static PeerAddress of(String literal) {
        try {
            return of(InetAddress.getByName(literal));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + literal, e);
        }
    }

    /** The endpoint of a GID: IPv4-mapped GIDs give IPv4 addresses. */
    public static PeerAddress ofGid(byte[] gid) {
        try {
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= gid[i] == 0;
            }
            mapped &= gid[10] == (byte) 0xFF && gid[11] == (byte) 0xFF;
            InetAddress a = mapped ? InetAddress.getByAddress(Arrays.copyOfRange(gid, 12, 16))
                    : Inet6Address.getByAddress(null, gid, null);
            return of(a);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("a GID has 16 bytes", e);
        }
    }

    public InetAddress address() {
        return address;
    }

    /** 127.0.0.0/8 or ::1: only jrxe devices can be there (kernel rxe does not attach to lo). */
    public boolean loopback() {
        return loopback;
    }

    /** A multicast group (224.0.0.0/4, ff00::/8): its datagrams reach every port that joined it. */
    public boolean multicast() {
        return multicast;
    }

    public boolean ipv6() {
        return ip.length == 16;
    }

    /** The raw IP address: 4 or 16 bytes. Not copied: do not modify. */
    public byte[] ipBytes() {
        return ip;
    }

    /** The GID. Not copied: do not modify. */
    public byte[] gid() {
        return gid;
    }

    /** The IPv4 address as an int (IPv4 only). */
    public int ipv4() {
        return (ip[0] & 0xFF) << 24 | (ip[1] & 0xFF) << 16 | (ip[2] & 0xFF) << 8 | (ip[3] & 0xFF);
    }

    /** Whether both name the same IP address (ports aside). Allocation-free, for the receive path. */
    public boolean sameIp(PeerAddress other) {
        return other != null && Arrays.equals(ip, other.ip);
    }

    public InetSocketAddress socketAddress() {
        return socketAddress;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PeerAddress p && Arrays.equals(p.ip, ip) && p.socketAddress.getPort() == socketAddress.getPort();
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ip) * 31 + socketAddress.getPort();
    }

    @Override
    public String toString() {
        return address.getHostAddress();
    }
}
