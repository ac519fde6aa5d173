package io.jrxe.wire.port.udp;

import io.jrxe.wire.port.InvokerLoop;
import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.PolledPort;
import io.jrxe.wire.port.raw.RawIpv4Sender;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import io.jrxe.wire.port.raw.TransmitPath;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.ProtocolFamily;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.HashMap;
import java.util.Map;

/**
 * A device's RoCEv2 port on UDP sockets that any thread may read and write, so that whichever
 * thread runs the NIC's duty cycle ({@link InvokerLoop}) serves it: a non-blocking socket bound
 * to the device's address on port 4791 receives, one socket per UDP source port sends (as
 * {@link UdpPort} does, SO_REUSEPORT). Each packet is sent at once, one system call, which is
 * what a lone request of a ping-pong wants; there is no GSO batch, so bulk transfers belong to
 * {@link UdpPort}. A QP of one peer sends from a socket connected to that peer, so that the kernel
 * keeps its route instead of looking it up for every datagram. Only the thread holding the loop
 * touches this object, but for joining and leaving multicast groups, which any thread may do (the
 * group sockets are an array copied on write).
 *
 * <p>It uses the JDK's sockets rather than Netty's because a Netty event loop can only be run by
 * the one thread that owns it, and the point of this port is to be run by the application's.
 * Over IPv6, Java cannot allow a zero UDP checksum (UDP_NO_CHECK6_RX), which kernel rxe sends:
 * this port reaches jrxe peers over IPv6 and any peer over IPv4.
 */
public final class PolledUdpPort extends RoceUdpPort implements PolledPort {
    private final DatagramChannel receiver;
    private final ProtocolFamily family;
    /** The IPv4 raw transmit path to kernel peers, or null. */
    private final RawIpv4Sender raw;
    private final TransmitPath transmitPath;
    private final Map<Integer, DatagramChannel> senders = new HashMap<>();
    /** Per source port, the socket connected to the one peer of the QP that prepared it (see prepareSource). */
    private final Map<Integer, ConnectedSender> connectedSenders = new HashMap<>();
    private final SourcePortUsers sourceUsers = new SourcePortUsers();
    /** The interface multicast leaves and is joined through, or null when no interface has the address. */
    private final NetworkInterface multicastIf;
    /**
     * A socket per multicast group joined. Copied on write (joins and leaves come from the verbs' threads), so the
     * holder of the loop walks a snapshot without a lock.
     */
    private volatile GroupSocket[] groupSockets = new GroupSocket[0];
    /** Who watches a new group socket for the thread that waits for work (the invoker loop's), or null. */
    private volatile SelectorWaiter watcher;
    private final ByteBuffer rx = ByteBuffer.allocateDirect(MAX_DATAGRAM);
    /**
     * Reads the port's own socket with recvmsg, which gives each datagram's TOS byte (the ECN codepoint); null
     * where it cannot be had ({@link #tosUnreadReason} says why), and the JDK's receive reads it without.
     */
    private final TosReceiver tosReceiver;
    private final String tosUnreadReason;
    private int lastSenderPort = -1;
    private PeerAddress lastSenderPeer;
    private DatagramChannel lastSender;
    private boolean lastSenderConnected;
    private volatile boolean closed;

    private record GroupSocket(PeerAddress group, DatagramChannel channel) {
    }

    private record ConnectedSender(PeerAddress peer, DatagramChannel channel) {
    }

    private PolledUdpPort(PeerAddress local, DatagramChannel receiver, RawIpv4Sender raw, TransmitPath transmitPath,
                          NetworkInterface multicastIf) {
        super(local);
        this.multicastIf = multicastIf;
        this.receiver = receiver;
        this.family = local.ipv6() ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET;
        this.raw = raw;
        this.transmitPath = transmitPath;
        TosReceiver r = null;
        String why = null;
        try {
            r = TosReceiver.of(local.socketAddress(), MAX_DATAGRAM);
        } catch (IOException e) {
            why = e.getMessage();
        }
        this.tosReceiver = r;
        this.tosUnreadReason = why;
    }

    /**
     * Why the ECN codepoint of the datagrams to the port's own address is not read, or null when it is. A multicast
     * group's datagrams are read without it.
     */
    public String tosUnreadReason() {
        return tosUnreadReason;
    }

    /**
     * Binds the device's address on port 4791; over IPv4, packets to peers that are not on
     * loopback leave through a raw socket where the process may open one, as {@link UdpPort}'s do.
     *
     * @throws PortInUseException with a sentence for a taken port or an address that is not local
     */
    public static PolledUdpPort bind(PeerAddress local, RawSocketOpener rawOpener) throws PortInUseException {
        RawIpv4Sender raw = null;
        TransmitPath path = TransmitPath.IPV6;
        if (!local.ipv6()) {
            try {
                raw = new RawIpv4Sender(rawOpener.open(), local, RawIpv4Sender.DEFAULT_SLOTS, MAX_DATAGRAM, 1);
                path = TransmitPath.RAW;
            } catch (RawSocketUnavailableException e) {
                path = TransmitPath.udpIpv4(e);
            }
        }
        InetSocketAddress at = local.socketAddress();
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open(local.ipv6() ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 8 << 20);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, 8 << 20);
            ch.configureBlocking(false);
            NetworkInterface multicastIf = MulticastInterface.orNull(local);
            sendMulticastFrom(ch, local, multicastIf);
            ch.bind(at);
            return new PolledUdpPort(local, ch, raw, path, multicastIf);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            if (raw != null) {
                raw.close();
            }
            throw new PortInUseException(UdpSockets.describeBindFailure(at, e), e);
        }
    }

    /** A selector over the port's socket and its groups' sockets, those joined later included. */
    @Override
    public synchronized SelectorWaiter openWaiter() throws IOException {
        SelectorWaiter w = new SelectorWaiter(receiver);
        for (GroupSocket g : groupSockets) {
            w.watch(g.channel());
        }
        watcher = w;
        return w;
    }

    /** As {@link UdpSockets#bindGroup}'s comment says for the event-loop port; IPv6 also needs IPV6_MULTICAST_IF. */
    private static void sendMulticastFrom(DatagramChannel ch, PeerAddress local, NetworkInterface multicastIf) throws IOException {
        if (multicastIf != null && local.ipv6()) {
            ch.setOption(StandardSocketOptions.IP_MULTICAST_IF, multicastIf);
        }
    }

    /**
     * Binds a socket to the group on port 4791 (SO_REUSEADDR, so that other devices of the host may too) and joins
     * the group on the interface of the device's address; whoever runs the loop reads it as it reads the port's
     * own socket, the group being the datagrams' destination. The JDK cannot turn IP_MULTICAST_ALL off: a device
     * here also gets a group's datagrams that arrive on another interface of the host where some socket joined it.
     */
    @Override
    public synchronized void joinGroup(PeerAddress group) throws MulticastJoinException {
        MulticastInterface.checkFamily(local, group);
        for (GroupSocket g : groupSockets) {
            if (g.group().equals(group)) {
                return;
            }
        }
        NetworkInterface nif = MulticastInterface.of(local);
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open(family);
            ch.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            ch.setOption(StandardSocketOptions.SO_RCVBUF, 4 << 20);
            ch.configureBlocking(false);
            ch.bind(MulticastInterface.bindAddress(group, nif));
            ch.join(group.address(), nif);
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            throw new MulticastJoinException("cannot join " + group + " on " + nif.getName() + ": " + e.getMessage(), e);
        }
        GroupSocket[] now = java.util.Arrays.copyOf(groupSockets, groupSockets.length + 1);
        now[now.length - 1] = new GroupSocket(group, ch);
        groupSockets = now;
        SelectorWaiter w = watcher;
        if (w != null) {
            w.watch(ch);
        }
    }

    /** Closes the group's socket, which leaves the group. */
    @Override
    public synchronized void leaveGroup(PeerAddress group) {
        GroupSocket[] was = groupSockets;
        for (int i = 0; i < was.length; i++) {
            if (was[i].group().equals(group)) {
                GroupSocket[] now = new GroupSocket[was.length - 1];
                System.arraycopy(was, 0, now, 0, i);
                System.arraycopy(was, i + 1, now, i, was.length - i - 1);
                groupSockets = now;
                closeQuietly(was[i].channel());
                return;
            }
        }
    }

    /**
     * Whether a datagram to a group leaves through the device's interface: an IPv4 UDP socket bound to the
     * device's address always does, the raw socket and an IPv6 socket when their multicast interface is set. A
     * multicast datagram that the routes could send anywhere (out of the host) is not sent.
     */
    private boolean multicastRouted() {
        return local.ipv6() ? multicastIf != null : raw == null || raw.sendsMulticastFromLocalInterface();
    }

    @Override
    protected RawIpv4Sender rawSender() {
        return raw;
    }

    @Override
    public TransmitPath transmitPath() {
        return transmitPath;
    }

    @Override
    public int receive(int max) {
        int n = tosReceiver != null ? receiveWithTos(max) : receiveFrom(receiver, local, max);
        for (GroupSocket g : groupSockets) {
            n += receiveFrom(g.channel(), g.group(), max - n);
        }
        PacketSink s = sink;
        if (n > 0 && s != null && !closed) {
            s.burstEnd();
        }
        return n;
    }

    /** Reads up to {@code max} datagrams waiting on the port's own socket through recvmsg, each with its TOS byte. */
    private int receiveWithTos(int max) {
        return closed ? 0 : tosReceiver.drain(max, withTos);
    }

    private final TosReceiver.Datagrams withTos = (buffer, offset, length, sender, tos) -> {
        if (!closed) {
            admit(buffer, offset, length, sender, local, tos);
        }
    };

    /** Reads up to {@code max} datagrams waiting on {@code ch}, whose destination was {@code destination}. */
    private int receiveFrom(DatagramChannel ch, PeerAddress destination, int max) {
        int n = 0;
        try {
            while (n < max && !closed) {
                rx.clear();
                InetSocketAddress from = (InetSocketAddress) ch.receive(rx);
                if (from == null) {
                    break;
                }
                n++;
                admit(rx, 0, rx.position(), from, destination, 0);
            }
        } catch (IOException e) {
            return n; // a closed socket (shutdown, a group left) or an ICMP error queued on it: nothing to read now
        }
        return n;
    }

    @Override
    public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (closed) {
            return;
        }
        if (to.multicast() && !multicastRouted()) {
            multicastUnroutable.increment();
            return;
        }
        // A packet to corrupt leaves through UDP, whose ICRC this port writes and can then spoil.
        if (leavesRaw(to) && !corruptionPending()) {
            int identification = raw.stage(packet, offset, length, to, srcPort);
            tapSent(to, srcPort, identification, packet, offset, length);
            raw.flush();
            return;
        }
        DatagramChannel ch = sender(srcPort, to);
        int sourcePort = ch == receiver ? boundPort() : srcPort;
        writeUdpIcrc(packet, offset, length, to, sourcePort);
        tapSent(to, sourcePort, 0, packet, offset, length);
        int position = packet.position();
        int limit = packet.limit();
        try {
            packet.limit(offset + length).position(offset);
            if ((lastSenderConnected ? ch.write(packet) : ch.send(packet, destination(to))) == 0) {
                transmitFailures.increment();
            }
        } catch (IOException e) {
            transmitFailures.increment();
        } finally {
            packet.limit(limit).position(position);
        }
    }

    /**
     * Binds the socket the QP's packets will leave from: for a QP of one peer, a socket connected to it (a datagram
     * to a connected socket's peer skips the kernel's route lookup, as a NIC's QP context holds its path); else, or
     * when the source port is already connected to another peer, the port's unconnected socket.
     */
    @Override
    public void prepareSource(PeerAddress to, int srcPort) {
        if (closed || leavesRaw(to)) {
            return;
        }
        sourceUsers.add(srcPort);
        if (to == null || to.multicast() || !connect(srcPort, to)) {
            sender(srcPort);
        }
    }

    @Override
    public void releaseSource(PeerAddress to, int srcPort) {
        if (closed || leavesRaw(to) || !sourceUsers.remove(srcPort)) {
            return;
        }
        lastSenderPort = -1;
        ConnectedSender c = connectedSenders.remove(srcPort);
        if (c != null) {
            closeQuietly(c.channel());
        }
        DatagramChannel ch = senders.remove(srcPort);
        if (ch != receiver) {
            closeQuietly(ch);
        }
    }

    /** Whether packets from {@code srcPort} to {@code to} can leave from a connected socket, binding it if need be. */
    private boolean connect(int srcPort, PeerAddress to) {
        ConnectedSender existing = connectedSenders.get(srcPort);
        if (existing != null) {
            return existing.peer().equals(to);
        }
        DatagramChannel ch = bindSender(srcPort);
        if (ch == receiver) {
            return false;
        }
        try {
            ch.connect(destination(to));
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            return false;
        }
        connectedSenders.put(srcPort, new ConnectedSender(to, ch));
        lastSenderPort = -1; // the next packet of this port looks again, and finds this socket
        return true;
    }

    @Override
    protected boolean leavesRaw(PeerAddress to) {
        return raw != null && (to == null || !to.loopback());
    }

    @Override
    protected int udpSourcePort(int srcPort, PeerAddress to) {
        return sender(srcPort, to) == receiver ? boundPort() : srcPort;
    }

    /**
     * The socket a packet from this UDP source port to {@code to} leaves from: the one connected to {@code to} if
     * its QP prepared it, else the one bound to the port (the 4791 socket when it cannot be had).
     * {@link #lastSenderConnected} says which.
     */
    private DatagramChannel sender(int srcPort, PeerAddress to) {
        if (srcPort == lastSenderPort && (to == lastSenderPeer || to.equals(lastSenderPeer))) {
            return lastSender; // a burst comes from one QP: no lookup (and no boxing of the port) per packet
        }
        ConnectedSender c = connectedSenders.get(srcPort);
        boolean connected = c != null && c.peer().equals(to);
        lastSender = connected ? c.channel() : sender(srcPort);
        lastSenderConnected = connected;
        lastSenderPeer = to;
        lastSenderPort = srcPort;
        return lastSender;
    }

    /** The unconnected socket bound to this UDP source port; the 4791 socket when it cannot be had. */
    private DatagramChannel sender(int srcPort) {
        DatagramChannel ch = senders.get(srcPort);
        if (ch == null) {
            ch = bindSender(srcPort);
            senders.put(srcPort, ch);
        }
        return ch;
    }

    /** Whether packets from {@code srcPort} to {@code to} leave from a socket connected to {@code to} (for tests). */
    boolean sendsConnected(int srcPort, PeerAddress to) {
        ConnectedSender c = connectedSenders.get(srcPort);
        return c != null && c.peer().equals(to) && c.channel().isConnected();
    }

    private DatagramChannel bindSender(int srcPort) {
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open(family);
            ch.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            ch.setOption(StandardSocketOptions.SO_SNDBUF, 4 << 20);
            if (sendTos != 0) {
                ch.setOption(StandardSocketOptions.IP_TOS, sendTos);
            }
            ch.configureBlocking(false);
            sendMulticastFrom(ch, local, multicastIf);
            ch.bind(new InetSocketAddress(local.address(), srcPort));
            return ch;
        } catch (IOException | RuntimeException e) {
            closeQuietly(ch);
            return receiver;
        }
    }

    @Override
    protected void applySendTos() {
        setTos(receiver);
        senders.values().forEach(this::setTos);
        connectedSenders.values().forEach(c -> setTos(c.channel()));
    }

    private void setTos(DatagramChannel ch) {
        try {
            ch.setOption(StandardSocketOptions.IP_TOS, sendTos);
        } catch (IOException | RuntimeException e) {
            // a socket closed meanwhile sends nothing more
        }
    }

    @Override
    public void close() {
        closed = true;
        closeQuietly(receiver);
        for (GroupSocket g : groupSockets) {
            closeQuietly(g.channel());
        }
        for (DatagramChannel ch : senders.values()) {
            if (ch != receiver) {
                closeQuietly(ch);
            }
        }
        for (ConnectedSender c : connectedSenders.values()) {
            closeQuietly(c.channel());
        }
        if (raw != null) {
            raw.close();
        }
    }

    private static void closeQuietly(DatagramChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // closing: nothing left to do with it
            }
        }
    }
}
