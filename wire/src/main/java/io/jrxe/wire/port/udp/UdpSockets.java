package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PeerAddress;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.FixedRecvByteBufAllocator;
import io.netty.channel.epoll.EpollChannelOption;
import io.netty.channel.unix.IntegerUnixChannelOption;
import io.netty.channel.unix.RawUnixChannelOption;

import java.net.BindException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * How a {@link UdpPort}'s sockets are made: the one bound to the device's address on port 4791, which
 * receives, one per UDP source port a QP sends from, and one per multicast group the device joined. Setup only:
 * nothing here runs per packet.
 */
final class UdpSockets {
    /** A receive slot of recvmmsg: a whole UDP GRO run (at most 64 KiB). */
    static final int RECEIVE_SLOT = 65_535;

    /**
     * Kernel rxe sends RoCEv2 over IPv6 with a UDP checksum of 0 (the ICRC protects the packet),
     * which RFC 8200 forbids and Linux drops (Udp6InCsumErrors) unless the socket allows it with
     * UDP_NO_CHECK6_RX, as rxe's own socket does. Java's NIO cannot set it: the NIO transport
     * receives nothing from a kernel rxe peer over IPv6.
     */
    private static final IntegerUnixChannelOption ACCEPT_ZERO_UDP6_CHECKSUM =
            new IntegerUnixChannelOption("UDP_NO_CHECK6_RX", 17 /* IPPROTO_UDP */, 102 /* UDP_NO_CHECK6_RX */);

    static {
        // Netty names each channel with a machine ID taken from a MAC address. In a network namespace that
        // has only a loopback interface it finds none and logs a warning to every user; the ID only tells
        // channels apart in Netty's own logs, so the random bytes Netty would fall back to are given up front.
        if (System.getProperty("io.netty.machineId") == null) {
            byte[] id = new byte[8];
            new java.security.SecureRandom().nextBytes(id);
            id[0] |= 0x02; // a locally administered address, as a made-up MAC should be
            System.setProperty("io.netty.machineId", java.util.HexFormat.ofDelimiter(":").formatHex(id));
        }
    }

    /**
     * SO_BINDTODEVICE for an IPv6 group's socket: Linux hands an IPv6 multicast datagram to every socket that
     * joined its group, whatever interface it arrived on or was joined on. The copy IPV6_MULTICAST_LOOP makes of
     * a datagram sent out of another interface of the host would reach this device as well as the datagram
     * itself arriving over the link: twice. Bound to its interface, the socket takes only what arrives there.
     * (IPv4 filters by the interface of the membership already.)
     */
    private static final RawUnixChannelOption BIND_TO_DEVICE = new RawUnixChannelOption("SO_BINDTODEVICE",
            1 /* SOL_SOCKET */, 25 /* SO_BINDTODEVICE */, 16 /* IFNAMSIZ */);

    private static ByteBuffer interfaceName(NetworkInterface nif) {
        ByteBuffer name = ByteBuffer.allocateDirect(16); // NUL-padded, as the kernel reads IFNAMSIZ bytes
        name.put(nif.getName().getBytes(StandardCharsets.US_ASCII)).position(0);
        return name;
    }

    private UdpSockets() {
    }

    /**
     * Binds the receiving socket at {@code at}, its datagrams going to {@code handler}.
     *
     * @throws PortInUseException with a sentence for a taken port or an address that is not local
     */
    static Channel bindReceiver(UdpTransport transport, EventLoop loop, InetSocketAddress at, NetworkInterface multicastIf,
                                ChannelHandler handler) throws PortInUseException {
        Bootstrap b = new Bootstrap().group(loop).channel(transport.channelClass())
                .option(ChannelOption.SO_RCVBUF, 8 << 20)
                .option(ChannelOption.SO_SNDBUF, 8 << 20)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(
                        transport == UdpTransport.EPOLL ? RECEIVE_SLOT : UdpPort.MAX_DATAGRAM))
                .handler(handler);
        sendMulticastFrom(b, at, multicastIf);
        if (transport == UdpTransport.EPOLL) {
            // UDP GRO: a peer's run of same-size packets arrives as one buffer that Netty cuts back into
            // datagrams, instead of the kernel cutting it up and queuing each (on loopback, a GSO send
            // is not segmented at all). A slot must then hold a whole coalesced run.
            b.option(EpollChannelOption.MAX_DATAGRAM_PAYLOAD_SIZE, 0)
                    .option(EpollChannelOption.UDP_GRO, true);
            if (at.getAddress() instanceof Inet6Address) {
                b.option(ACCEPT_ZERO_UDP6_CHECKSUM, 1);
            }
        }
        try {
            return b.bind(at).sync().channel();
        } catch (Exception e) {
            throw new PortInUseException(describeBindFailure(at, e), e);
        }
    }

    /**
     * Starts binding a socket that only sends, at {@code at} beside the others on that address (SO_REUSEPORT);
     * the bind completes on the event loop, which must not wait for it.
     */
    static ChannelFuture bindSender(UdpTransport transport, EventLoop loop, InetSocketAddress at, NetworkInterface multicastIf,
                                    int tos, ChannelHandler handler) {
        Bootstrap b = new Bootstrap().group(loop).channel(transport.channelClass())
                .option(ChannelOption.SO_SNDBUF, 4 << 20)
                .option(ChannelOption.IP_TOS, tos)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .handler(handler);
        sendMulticastFrom(b, at, multicastIf);
        if (transport == UdpTransport.EPOLL) {
            b.option(EpollChannelOption.SO_REUSEPORT, true);
        }
        return b.bind(at);
    }

    /**
     * Multicast leaves through the device's interface. An IPv4 socket bound to the device's address needs nothing
     * (Linux sends its multicast out of the interface that has the address), an IPv6 one needs
     * IPV6_MULTICAST_IF: its route to ff00::/8 could name any interface.
     */
    private static void sendMulticastFrom(Bootstrap b, InetSocketAddress at, NetworkInterface multicastIf) {
        if (multicastIf != null && at.getAddress() instanceof Inet6Address) {
            b.option(ChannelOption.IP_MULTICAST_IF, multicastIf);
        }
    }

    /**
     * Binds a socket that receives the datagrams sent to {@code group} on port 4791 and joins the group on
     * {@code nif} (IGMP, MLD), its datagrams going to {@code handler}. Several devices of a host may each bind the
     * same group (SO_REUSEADDR): every one gets a copy. Where epoll allows it, IP_MULTICAST_ALL is off, so that the
     * socket gets only what arrives on its own interface, not every group any socket of the host joined elsewhere.
     * Not on the event loop: it waits for the bind and the join.
     */
    static Channel bindGroup(UdpTransport transport, EventLoop loop, PeerAddress group, NetworkInterface nif,
                             ChannelHandler handler) throws MulticastJoinException {
        InetSocketAddress at = MulticastInterface.bindAddress(group, nif);
        Bootstrap b = new Bootstrap().group(loop).channel(transport.channelClass())
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.SO_RCVBUF, 4 << 20)
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .option(ChannelOption.RCVBUF_ALLOCATOR, new FixedRecvByteBufAllocator(UdpPort.MAX_DATAGRAM))
                .handler(handler);
        if (transport == UdpTransport.EPOLL) {
            b.option(EpollChannelOption.IP_MULTICAST_ALL, false);
            if (group.ipv6()) {
                b.option(ACCEPT_ZERO_UDP6_CHECKSUM, 1);
                b.option(BIND_TO_DEVICE, interfaceName(nif));
            }
        }
        Channel ch;
        try {
            ch = b.bind(at).sync().channel();
        } catch (Exception e) {
            throw new MulticastJoinException("cannot bind " + group + " port " + PeerAddress.ROCE_PORT + ": " + e.getMessage(), e);
        }
        try {
            ((io.netty.channel.socket.DatagramChannel) ch).joinGroup(group.socketAddress(), nif).sync();
            return ch;
        } catch (Exception e) {
            ch.close().syncUninterruptibly();
            throw new MulticastJoinException("cannot join " + group + " on " + nif.getName() + ": " + e.getMessage(), e);
        }
    }

    static String describeBindFailure(InetSocketAddress at, Throwable e) {
        String text = String.valueOf(e.getMessage());
        String where = at.getAddress().getHostAddress() + ":" + at.getPort();
        // The JDK's sockets throw BindException for EADDRNOTAVAIL too, so the address is looked at first. macOS's
        // strerror words it "Can't".
        if (text.contains("Cannot assign requested address") || text.contains("Can't assign requested address")
                || text.contains("EADDRNOTAVAIL")) {
            return at.getAddress().getHostAddress() + " is not an address of this machine (see `ip addr`)";
        }
        if (e instanceof BindException || text.contains("Address already in use") || text.contains("EADDRINUSE")) {
            return "another RoCE device, kernel rxe or jrxe, already uses " + where;
        }
        return "cannot bind " + where + ": " + text;
    }
}
