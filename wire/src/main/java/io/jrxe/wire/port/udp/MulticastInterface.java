package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PeerAddress;

import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;

/**
 * Where a port meets multicast: the network interface its address is on, which joins the groups (IGMP, MLD) and
 * sends to them, and the socket address a group's socket binds. Setup only.
 */
public final class MulticastInterface {
    private MulticastInterface() {
    }

    /**
     * The interface that has the port's address; for a loopback address that no interface lists (127.0.0.2 is
     * routed to lo without being assigned), the loopback interface.
     */
    static NetworkInterface of(PeerAddress local) throws MulticastJoinException {
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(local.address());
            if (nif == null && local.loopback()) {
                nif = NetworkInterface.networkInterfaces().filter(MulticastInterface::isLoopback).findFirst().orElse(null);
            }
            if (nif == null) {
                throw new MulticastJoinException("no network interface of this host has the address " + local
                        + " (see `ip addr`): there is none to join a multicast group on");
            }
            return nif;
        } catch (SocketException e) {
            throw new MulticastJoinException("cannot list the network interfaces: " + e.getMessage(), e);
        }
    }

    /** The interface of the port's address, or null when it has none (then multicast follows the routes). */
    static NetworkInterface orNull(PeerAddress local) {
        try {
            return of(local);
        } catch (MulticastJoinException e) {
            return null;
        }
    }

    private static boolean isLoopback(NetworkInterface nif) {
        try {
            return nif.isLoopback();
        } catch (SocketException e) {
            return false;
        }
    }

    /** Refuses a group of the other IP family than the port's: a socket is of one family. */
    public static void checkFamily(PeerAddress local, PeerAddress group) throws MulticastJoinException {
        if (!group.multicast()) {
            throw new MulticastJoinException(group + " is not a multicast address");
        }
        if (group.ipv6() != local.ipv6()) {
            throw new MulticastJoinException("the port at " + local + " cannot join " + group + ": another IP family");
        }
    }

    /**
     * The address a group's socket binds: the group on port 4791, so that it receives that group's datagrams and
     * nothing else. An IPv6 group of link or interface scope (ff02::/16, ff01::/16) is bound with the interface
     * as its scope, which Linux requires.
     */
    static InetSocketAddress bindAddress(PeerAddress group, NetworkInterface nif) throws MulticastJoinException {
        if (group.address() instanceof Inet6Address) {
            int scope = group.ipBytes()[1] & 0x0F;
            if (scope == 1 || scope == 2) {
                try {
                    return new InetSocketAddress(Inet6Address.getByAddress(null, group.ipBytes(), nif), PeerAddress.ROCE_PORT);
                } catch (UnknownHostException e) {
                    throw new MulticastJoinException("cannot scope " + group + " to " + nif.getName() + ": " + e.getMessage(), e);
                }
            }
        }
        return group.socketAddress();
    }
}
