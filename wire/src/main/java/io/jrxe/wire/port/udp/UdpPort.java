package io.jrxe.wire.port.udp;

import io.jrxe.wire.icrc.Ipv4IdentificationSolver;
import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawIpv4Sender;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.raw.RawSocketUnavailableException;
import io.jrxe.wire.port.raw.TransmitPath;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.IoEventLoop;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.DatagramPacket;
import io.netty.util.collection.IntObjectHashMap;

import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A device's RoCEv2 port on real UDP: one socket bound to the device's address on port 4791
 * receives (recvmmsg with epoll), and each UDP source port a QP sends from gets a socket of its
 * own (SO_REUSEPORT), so that packets leave from the port rxe would choose. Sends are written
 * immediately and flushed once per event-loop turn (batched writes).
 *
 * <p>ICRC: over IPv6 the socket knows every byte the ICRC covers. Over IPv4 the ICRC covers the
 * IP identification too, which a UDP socket leaves to the kernel (Linux numbers even DF
 * datagrams). So where the process may open a raw socket (CAP_NET_RAW), IPv4 packets leave
 * through it with IP and UDP headers jrxe wrote and an identification it chose, one
 * sendmmsg(2) per flush ({@link RawIpv4Sender}); kernel rxe peers accept those. Otherwise they
 * leave through UDP sockets with an ICRC computed for identification 0, which only jrxe peers
 * accept: {@link #transmitPath()} says which. Receiving is on the UDP socket either way, and over
 * IPv4 solves for the identification that makes a packet's ICRC right
 * ({@link Ipv4IdentificationSolver}).
 *
 * <p>The sockets' setup is in {@link UdpSockets}; the ICRC and the admission of a received
 * datagram are {@link RoceUdpPort}'s, shared with the polled port. What is here runs on the event
 * loop: the source port's socket, the GSO batch and its flush, and the GRO slice's view. Batching,
 * flush and close share the batch and the sockets, so they stay in one class.
 */
public final class UdpPort extends RoceUdpPort {
    private final UdpTransport transport;
    private final EventLoop loop;
    private final Channel receiver;
    /** The IPv4 raw transmit path, or null when packets leave through UDP sockets. */
    private final RawIpv4Sender raw;
    private final TransmitPath transmitPath;
    private boolean rawToLoopback;
    /** The source ports' sockets, by port: looked up with the port as an int (no boxing) when the sending QP changes. */
    private final IntObjectHashMap<Channel> senders = new IntObjectHashMap<>();
    private final SourcePortUsers sourceUsers = new SourcePortUsers();
    /**
     * The sockets written to since the last flush, which are the ones to flush. A QP sends from a socket of
     * its own source port: flushing every sender socket at the end of each turn cost the NIC thread more
     * than ten thousand QPs' packets, and it read no ACKs meanwhile.
     */
    private final ArrayList<Channel> written = new ArrayList<>();
    /** The interface multicast leaves and is joined through, or null when no interface has the address. */
    private final NetworkInterface multicastIf;
    /** A socket per multicast group joined (written by the verb's thread, closed by any). */
    private final Map<PeerAddress, Channel> groups = new ConcurrentHashMap<>();
    private final Runnable flush = this::flushNow;
    private boolean flushPending;
    private volatile boolean closed;

    private UdpPort(UdpTransport transport, EventLoop loop, PeerAddress local, Channel receiver, RawIpv4Sender raw,
                    TransmitPath transmitPath, NetworkInterface multicastIf) {
        super(local);
        this.multicastIf = multicastIf;
        this.transport = transport;
        this.loop = loop;
        this.receiver = receiver;
        this.raw = raw;
        this.transmitPath = transmitPath;
        this.staging = new TransmitStaging(receiver.alloc());
    }

    /**
     * Binds the device's address on port 4791 (or {@code port}, for tests).
     *
     * @throws PortInUseException with a sentence for a taken port or an address that is not local
     */
    public static UdpPort bind(UdpTransport transport, EventLoop loop, PeerAddress local) throws PortInUseException {
        return bind(transport, loop, local, RawSocketOpener.system());
    }

    /**
     * Binds as {@link #bind(UdpTransport, EventLoop, PeerAddress)} does, opening the IPv4 raw
     * transmit socket with {@code rawOpener}; when it fails, IPv4 packets go through UDP sockets.
     */
    public static UdpPort bind(UdpTransport transport, EventLoop loop, PeerAddress local, RawSocketOpener rawOpener)
            throws PortInUseException {
        return bind(transport, loop, local, rawOpener, RawSocketOpener.rawToLoopbackAsked());
    }

    /**
     * As {@link #bind(UdpTransport, EventLoop, PeerAddress, RawSocketOpener)}; with {@code rawToLoopback}
     * false, packets to loopback peers (jrxe devices: kernel rxe does not attach to lo) keep the UDP
     * sockets, whose GSO batches move twice the bytes a raw socket's one-datagram sends do, and whose IP
     * identification those peers solve for.
     */
    public static UdpPort bind(UdpTransport transport, EventLoop loop, PeerAddress local, RawSocketOpener rawOpener,
                               boolean rawToLoopback) throws PortInUseException {
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
        try {
            UdpPort port = bindUdp(transport, loop, local, raw, path);
            port.rawToLoopback = rawToLoopback;
            return port;
        } catch (PortInUseException | RuntimeException e) {
            if (raw != null) {
                raw.close();
            }
            throw e;
        }
    }

    private static UdpPort bindUdp(UdpTransport transport, EventLoop loop, PeerAddress local, RawIpv4Sender raw,
                                   TransmitPath path) throws PortInUseException {
        Holder holder = new Holder();
        NetworkInterface multicastIf = MulticastInterface.orNull(local);
        Channel ch = UdpSockets.bindReceiver(transport, loop, local.socketAddress(), multicastIf, receiving(holder, local));
        holder.port = new UdpPort(transport, loop, local, ch, raw, path, multicastIf);
        return holder.port;
    }

    private static final class Holder {
        volatile UdpPort port;
    }

    /** What a socket of the port does with its datagrams, which were sent to {@code destination}. */
    private static SimpleChannelInboundHandler<DatagramPacket> receiving(Holder holder, PeerAddress destination) {
        return new SimpleChannelInboundHandler<>(false) {
            @Override
            protected void channelRead0(ChannelHandlerContext ctx, DatagramPacket msg) {
                try {
                    holder.port.received(msg, destination);
                } finally {
                    msg.release();
                }
            }

            @Override
            public void channelReadComplete(ChannelHandlerContext ctx) {
                holder.port.readComplete();
            }

            @Override
            public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
                holder.port.transmitFailures.increment(); // a write with the void promise that the socket refused
            }
        };
    }

    /** What a sending socket does with a write its socket refused (writes go with the void promise, which fires here). */
    private final ChannelHandler countingFailures = new CountingFailures();

    @ChannelHandler.Sharable
    private final class CountingFailures extends ChannelInboundHandlerAdapter {
        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            transmitFailures.increment();
        }
    }

    /**
     * Binds a socket to the group on port 4791 and joins the group on the interface of the device's address; its
     * datagrams reach the NIC with the group as their destination. Packets to the group leave as any other: from
     * the device's address, out of that interface, and IP_MULTICAST_LOOP (on) gives a copy to the host's other
     * sockets in the group, this port's too.
     */
    @Override
    public void joinGroup(PeerAddress group) throws MulticastJoinException {
        if (loop.inEventLoop()) {
            throw new IllegalStateException("joining a group waits for the socket layer: not on the NIC thread");
        }
        MulticastInterface.checkFamily(local, group);
        if (closed || groups.containsKey(group)) {
            return;
        }
        Holder holder = new Holder();
        holder.port = this;
        Channel ch = UdpSockets.bindGroup(transport, loop, group, MulticastInterface.of(local), receiving(holder, group));
        groups.put(group, ch);
        if (closed) {
            ch.close();
        }
    }

    /** Closes the group's socket, which leaves the group. */
    @Override
    public void leaveGroup(PeerAddress group) {
        Channel ch = groups.remove(group);
        if (ch != null) {
            ch.close().syncUninterruptibly();
        }
    }

    public UdpTransport transport() {
        return transport;
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

    /** Packets the raw socket refused or had no room for (0 on the UDP path). */
    public long rawTransmitDrops() {
        return raw == null ? 0 : raw.packetsDropped();
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
            scheduleFlush();
            return;
        }
        Channel ch = sender(srcPort);
        int sourcePort = ch == receiver ? boundPort() : srcPort;
        writeUdpIcrc(packet, offset, length, to, sourcePort);
        batch(ch, to, packet, offset, length);
        tapSent(to, sourcePort, 0, packet, offset, length);
        scheduleFlush();
    }

    @Override
    public void flush() {
        if (flushPending) {
            flushNow(); // the task already queued finds nothing left to send
        }
    }

    private void scheduleFlush() {
        if (!flushPending) {
            flushPending = true;
            loop.execute(flush);
        }
    }

    // UDP GSO (epoll): consecutive packets of one size from one socket to one peer leave in one
    // send call and the kernel cuts them into datagrams, which is what bulk transfers need to
    // get past the cost of a system call per packet.
    private static final int GSO_MAX_BYTES = 65_000;
    /** Sockets written to before they are flushed without waiting for the turn's end. */
    private static final int FLUSH_SOCKETS = 32;
    private Channel batchChannel;
    private PeerAddress batchTo;
    private int batchSegment;
    private int batchCount;
    private final TransmitStaging staging;

    private void batch(Channel ch, PeerAddress to, ByteBuffer packet, int offset, int length) {
        boolean gso = transport == UdpTransport.EPOLL;
        if (batchCount > 0 && (!gso || ch != batchChannel || to != batchTo || length != batchSegment
                || (batchCount + 1) * length > GSO_MAX_BYTES)) {
            emitBatch();
            if (ch != batchChannel && written.size() >= FLUSH_SOCKETS) {
                // Many QPs' sockets written this turn: theirs leave now, in the send calls the turn's end would make
                // for them, so a turn of a thousand QPs keeps a few hundred datagrams queued in Netty, not
                // thousands (whose entries and slices its recyclers would stop pooling and allocate anew).
                flushWritten();
            }
        }
        if (batchCount == 0) {
            batchChannel = ch;
            batchTo = to;
            batchSegment = length;
            staging.start(gso ? Math.max(length, GSO_MAX_BYTES / length * length) : length);
        }
        staging.append(packet, offset, length);
        batchCount++;
    }

    private void emitBatch() {
        if (batchCount == 0) {
            return;
        }
        ByteBuf buf = staging.take();
        Channel ch = batchChannel;
        if (batchCount == 1) {
            ch.write(new DatagramPacket(buf, destination(batchTo)), ch.voidPromise());
        } else {
            ch.write(new io.netty.channel.epoll.SegmentedDatagramPacket(buf, batchSegment, destination(batchTo)),
                    ch.voidPromise());
        }
        batchCount = 0;
        if (written.isEmpty() || written.getLast() != ch) {
            written.add(ch);
        }
    }

    private void flushNow() {
        flushPending = false;
        if (raw != null) {
            raw.flush(); // both paths may have packets: loopback peers keep the UDP sockets
        }
        emitBatch();
        flushWritten();
    }

    private void flushWritten() {
        for (int i = 0; i < written.size(); i++) {
            Channel ch = written.get(i);
            if (ch.isActive()) {
                ch.flush();
            }
        }
        written.clear();
    }

    /** Until its socket is bound, a source port's packets would leave from 4791's: bind it before the first. */
    @Override
    public void prepareSource(PeerAddress to, int srcPort) {
        if (!closed && !leavesRaw(to)) {
            sourceUsers.add(srcPort);
            lookUpSender(srcPort);
        }
    }

    @Override
    public void releaseSource(PeerAddress to, int srcPort) {
        if (closed || leavesRaw(to) || !sourceUsers.remove(srcPort)) {
            return;
        }
        Channel ch = senders.remove(srcPort);
        if (srcPort == lastSenderPort) {
            lastSenderPort = -1;
            lastSender = null;
        }
        if (ch != null && ch != receiver) {
            ch.close(); // a packet of it written and not yet flushed goes with it: the QPs that sent from it are gone
        }
    }

    @Override
    protected boolean leavesRaw(PeerAddress to) {
        return raw != null && (rawToLoopback || to == null || !to.loopback());
    }

    @Override
    protected int udpSourcePort(int srcPort, PeerAddress to) {
        return sender(srcPort) == receiver ? boundPort() : srcPort;
    }

    /**
     * The socket bound to this UDP source port. It is bound on first use, asynchronously (this
     * runs on the event loop, which must not block); until it is ready, and if it cannot be had,
     * packets leave from the 4791 socket, and their ICRC is computed for that port.
     */
    private Channel sender(int srcPort) {
        if (srcPort == lastSenderPort && lastSender.isActive()) {
            return lastSender; // a burst comes from one QP: no lookup (and no boxing of the port) per packet
        }
        Channel ch = lookUpSender(srcPort);
        if (ch != receiver) {
            lastSenderPort = srcPort;
            lastSender = ch;
        }
        return ch;
    }

    private int lastSenderPort = -1;
    private Channel lastSender;

    /**
     * Set before use, as the sockets are the event loop's once packets flow. An ECN-capable port over epoll also
     * reads its own socket with recvmsg ({@link EpollTosReading}), each datagram with its TOS byte: the device takes
     * part in an ECN experiment, where the marks its peers' packets arrive with matter. Otherwise Netty's recvmmsg
     * reads it, in batches, without.
     */
    @Override
    protected void applySendTos() {
        receiver.config().setOption(ChannelOption.IP_TOS, sendTos);
        for (Channel ch : senders.values()) {
            ch.config().setOption(ChannelOption.IP_TOS, sendTos);
        }
        if (sendTos != 0 && tosReading == null && transport == UdpTransport.EPOLL && loop instanceof IoEventLoop io) {
            // On the NIC thread, so that from the moment this returns no datagram is read without its TOS byte.
            onNicThread(() -> {
                receiver.config().setAutoRead(false);
                try {
                    tosReading = EpollTosReading.start(io, local.socketAddress(), UdpSockets.RECEIVE_SLOT, withTos);
                } catch (java.io.IOException e) {
                    tosUnreadReason = e.getMessage();
                    receiver.config().setAutoRead(true);
                }
            });
        }
    }

    /** The NIC thread's recvmsg reading of the port's socket, or null (see applySendTos). */
    private volatile EpollTosReading tosReading;
    private volatile String tosUnreadReason = "the port is not ECN-capable: Netty's recvmmsg reads its socket";

    /**
     * Why the ECN codepoint of the datagrams to the port's own address is not read, or null when it is (an
     * ECN-capable port over epoll). A multicast group's datagrams are read without it.
     */
    public String tosUnreadReason() {
        return tosReading != null ? null : transport != UdpTransport.EPOLL ? "Netty's NIO transport gives no TOS byte"
                : tosUnreadReason;
    }

    private final EpollTosReading.Datagrams withTos = new EpollTosReading.Datagrams() {
        @Override
        public void datagram(ByteBuffer buffer, int offset, int length, InetSocketAddress sender, int tos) {
            if (!closed) {
                admit(buffer, offset, length, sender, local, tos);
            }
        }

        @Override
        public void burstEnd() {
            readComplete();
        }
    };

    private Channel lookUpSender(int srcPort) {
        Channel ch = senders.get(srcPort);
        if (ch != null) {
            return ch.isActive() ? ch : receiver;
        }
        ChannelFuture f = UdpSockets.bindSender(transport, loop, new InetSocketAddress(local.address(), srcPort), multicastIf,
                sendTos, countingFailures);
        senders.put(srcPort, f.channel());
        f.addListener(done -> {
            if (!done.isSuccess()) {
                senders.put(srcPort, receiver);
            }
        });
        return receiver;
    }

    /** Whether the socket of source port {@code srcPort} is bound and its packets leave from it (on the event loop). */
    boolean sourceBound(int srcPort) {
        Channel ch = senders.get(srcPort);
        return ch != null && ch != receiver && ch.isActive();
    }

    private void readComplete() {
        PacketSink s = sink;
        if (s != null && !closed) {
            s.burstEnd();
        }
    }

    private void received(DatagramPacket msg, PeerAddress destination) {
        if (closed) {
            return;
        }
        ByteBuf content = msg.content();
        int length = content.readableBytes();
        ByteBuffer buffer = view(content, length);
        // Netty's datagram channels do not hand over the TOS byte: the ECN codepoint is unknown here.
        admit(buffer, buffer.position(), length, msg.sender(), destination, 0);
    }

    /**
     * The datagram's bytes as a ByteBuffer, without making one per packet where it can: a GRO run
     * arrives cut into slices of one pooled buffer, and a slice's view is a new ByteBuffer each
     * time, while the pooled buffer's own view is reused; the slice is found in it by address.
     */
    private static ByteBuffer view(ByteBuf content, int length) {
        ByteBuf parent = content.unwrap();
        if (parent != null && parent.hasMemoryAddress() && content.hasMemoryAddress() && parent.nioBufferCount() == 1) {
            long at = content.memoryAddress() - parent.memoryAddress() + content.readerIndex();
            if (at >= 0 && at + length <= parent.capacity()) {
                return parent.internalNioBuffer((int) at, length);
            }
        }
        return content.nioBufferCount() == 1 ? content.internalNioBuffer(content.readerIndex(), length)
                : ByteBuffer.wrap(io.netty.buffer.ByteBufUtil.getBytes(content));
    }

    @Override
    public void close() {
        closed = true;
        if (raw != null) {
            closeOnNicThread(raw);
        }
        onNicThread(this::dropStaged);
        EpollTosReading reading = tosReading;
        if (reading != null) {
            onNicThread(reading::close);
        }
        receiver.close().syncUninterruptibly();
        for (Channel ch : groups.values()) {
            ch.close().syncUninterruptibly();
        }
        groups.clear();
        for (Channel ch : senders.values()) {
            if (ch != receiver) {
                ch.close().syncUninterruptibly();
            }
        }
    }

    /** The batch not yet handed to a socket goes with the port: the staging buffer is let go on the NIC thread, which writes it. */
    private void dropStaged() {
        batchCount = 0;
        staging.release();
    }

    /** The raw sender's native memory may only go when no send on the NIC thread can be using it. */
    private void closeOnNicThread(RawIpv4Sender sender) {
        onNicThread(sender::close);
    }

    /** Runs {@code task} on the NIC thread and waits for it; here when the loop has stopped. */
    private void onNicThread(Runnable task) {
        if (loop.inEventLoop()) {
            task.run();
            return;
        }
        try {
            loop.submit(task).syncUninterruptibly();
        } catch (java.util.concurrent.RejectedExecutionException e) {
            task.run();
        }
    }
}
