package io.jrxe.tools.mcast;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.Gids;

import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.StandardProtocolFamily;
import java.nio.channels.DatagramChannel;

/**
 * The host's membership of an IP multicast group on one interface, held by a UDP socket that receives nothing
 * itself (it is bound to a port of its own): IGMP or MLD tell the network, and the kernel accepts the group's
 * packets on that interface. Kernel rxe attaches QPs to a group without joining it, so without a member on its
 * interface the kernel drops the group's packets before rxe sees them; rxe's own UDP socket, bound to port 4791
 * on every address, then receives them as every socket there receives a group some socket of the host joined.
 */
final class IpGroupMembership implements AutoCloseable {
    private final DatagramChannel socket;
    private final NetworkInterface nif;

    private IpGroupMembership(DatagramChannel socket, NetworkInterface nif) {
        this.socket = socket;
        this.nif = nif;
    }

    /** Joins {@code group} on the interface that has {@code local} (the device's GID's address). */
    static IpGroupMembership join(InetAddress group, InetAddress local) {
        NetworkInterface nif;
        try {
            nif = NetworkInterface.getByInetAddress(local);
        } catch (IOException e) {
            throw new UserError("cannot list the network interfaces: " + e.getMessage(), e);
        }
        if (nif == null) {
            throw new UserError("no network interface has " + Gids.ip(local) + ", the device's GID: there is "
                    + "none to join " + Gids.ip(group) + " on (--no-ip-join skips the join)");
        }
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open(group instanceof Inet6Address ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            ch.bind(new InetSocketAddress(0));
            ch.join(group, nif);
            return new IpGroupMembership(ch, nif);
        } catch (IOException | RuntimeException e) {
            if (ch != null) {
                try {
                    ch.close();
                } catch (IOException ignored) {
                    // not joined: nothing to leave
                }
            }
            throw new UserError("cannot join " + Gids.ip(group) + " on " + nif.getName() + ": " + e.getMessage(), e);
        }
    }

    String interfaceName() {
        return nif.getName();
    }

    /** Leaves the group (closing the socket does). */
    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: the membership ends with the socket either way
        }
    }
}
