package io.jrxe.tools.rdmacm;

import io.jrxe.tools.BadOption;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.channels.DatagramChannel;

/**
 * The addresses of the librdmacm programs: what their address options name (getaddrinfo: a number or a host
 * name), and which address a jrxe NIC takes when the program binds none. A real librdmacm program finds its RDMA
 * device by the address it binds or by the route to its peer; a jrxe tool makes its NIC on that same address.
 */
final class CmAddresses {
    static final InetAddress IPV4_LOOPBACK = numeric("127.0.0.1");
    static final InetAddress IPV4_SECOND_LOOPBACK = numeric("127.0.0.2");
    static final InetAddress IPV6_LOOPBACK = numeric("::1");

    private CmAddresses() {
    }

    /** The address {@code text} names, or a bad option in getaddrinfo's words. */
    static InetAddress parse(String text, String option) {
        try {
            return InetAddress.getByName(text);
        } catch (UnknownHostException e) {
            throw new BadOption(option + " " + text + ": getaddrinfo failed - invalid hostname or IP address");
        }
    }

    /** The wildcard address of {@code family}'s kind (what a server without an address binds). */
    static InetAddress wildcard(InetAddress family) {
        return family instanceof Inet6Address ? numeric("::") : numeric("0.0.0.0");
    }

    /** Where a server's jrxe NIC goes: the address it binds, or for the wildcard the loopback address of its family. */
    static InetAddress serverNic(InetAddress bind) {
        if (!bind.isAnyLocalAddress()) {
            return bind;
        }
        return bind instanceof Inet6Address ? IPV6_LOOPBACK : IPV4_LOOPBACK;
    }

    /**
     * Where a client's jrxe NIC goes when it binds no source address: the address this host would send from to
     * the server (the route's source, as rdma_resolve_addr picks it). A server on this host holds that address
     * with its own NIC, so then another one: for a server on a loopback address 127.x.y.z, 127.x.y.(z+1) (z-1 for
     * .255); for one on another address of this host, 127.0.0.2. IPv6 has one loopback address, so there the
     * client must name one.
     */
    static InetAddress clientNic(InetAddress server, String sourceOption) {
        if (server instanceof Inet4Address && server.isLoopbackAddress()) {
            byte[] b = server.getAddress();
            b[3] = (byte) ((b[3] & 0xFF) == 255 ? 254 : (b[3] & 0xFF) + 1);
            try {
                return InetAddress.getByAddress(b);
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
        InetAddress source = routeSource(server);
        if (!source.equals(server) && !source.isAnyLocalAddress()) {
            return source;
        }
        if (server instanceof Inet4Address) {
            return IPV4_SECOND_LOOPBACK;
        }
        throw new BadOption(sourceOption + ": the server " + text(server) + " is on this host and its jrxe NIC holds "
                + "that address; give the client's jrxe NIC an IPv6 address of its own with " + sourceOption
                + " (IPv6 has one loopback address, ::1)");
    }

    /** The source address of the route to {@code destination}: connecting a datagram socket asks the kernel for it, sending nothing. */
    private static InetAddress routeSource(InetAddress destination) {
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.connect(new InetSocketAddress(destination, 4791));
            return ((InetSocketAddress) probe.getLocalAddress()).getAddress();
        } catch (IOException e) {
            throw new BadOption("no route to " + text(destination) + ": " + e.getMessage());
        }
    }

    /** An address as people write it: IPv6 in its short form (fd77::1, not fd77:0:0:0:0:0:0:1). */
    static String text(InetAddress a) {
        return a instanceof Inet6Address ? io.jrxe.tools.common.Gids.ntop(a.getAddress()) : a.getHostAddress();
    }

    private static InetAddress numeric(String ip) {
        try {
            return InetAddress.getByName(ip);
        } catch (UnknownHostException e) {
            throw new IllegalStateException(ip, e);
        }
    }
}
