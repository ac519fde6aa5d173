package io.jrxe.wire.port.udp;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.icrc.Ipv4IdentificationSolver;
import io.jrxe.wire.port.raw.RawIpv4Sender;
import io.jrxe.wire.port.AttachedPort;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.TransmitPath;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * What a RoCEv2 port on UDP sockets does per packet, whichever sockets carry it: the ICRC of a
 * packet leaving through a UDP socket, and the admission of a received datagram (its length,
 * its ICRC or, over IPv4, the identification that makes the ICRC right) before the NIC sees it,
 * with the capture tap told of each. The fields are the port object's own, as
 * {@link AttachedPort}'s are, so that the per-packet paths load nothing from other objects.
 *
 * <p>The event-loop port ({@link UdpPort}) and the polled port ({@link PolledUdpPort}) differ
 * only in how their sockets are read and written.
 */
public abstract class RoceUdpPort extends AttachedPort {
    /** Room for a 4096-byte MTU packet with every header. */
    public static final int MAX_DATAGRAM = 4096 + 128;

    private final IcrcCalculator icrc = new IcrcCalculator();
    private final IcrcCalculator sendIcrc = new IcrcCalculator();
    private final IcrcCalculator rxeFlushIcrc = new IcrcCalculator().rxeFlush(true);
    private final Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
    /** Made when the first FLUSH whose ICRC is not the IBTA's arrives over IPv4. */
    private Ipv4IdentificationSolver rxeFlushSolver;
    private final PacketInfo info = new PacketInfo();
    /** Datagrams a socket refused or had no room for (the peer's retransmission recovers them). */
    protected final SingleWriterCounter transmitFailures = new SingleWriterCounter();
    /** Datagrams to a multicast group not sent: no route leaves through the device's interface. */
    protected final SingleWriterCounter multicastUnroutable = new SingleWriterCounter();
    /** The TOS byte (IPv4) or traffic class (IPv6) of what this port sends: 0, or ECT(0) when ECN-capable. */
    protected int sendTos;
    /** Received datagrams whose IP header said congestion experienced (ECN CE). */
    protected final SingleWriterCounter ceReceived = new SingleWriterCounter();
    /**
     * Senders are few (one per peer device): keep their PeerAddress instead of making one per packet. By IP address,
     * not by socket address: each of a peer's QPs sends from a UDP source port of its own, and 10,000 QPs would
     * overflow a map of socket addresses and make one per packet again.
     */
    private final Map<InetAddress, PeerAddress> sources = new HashMap<>();
    /** The UDP port packets go to: RoCEv2's 4791, or another for devices that share one address ({@link #peersOnPort}). */
    private int peerPort = PeerAddress.ROCE_PORT;
    /** Per peer, its address on {@link #peerPort} (when that is not 4791): made once, not per packet. */
    private final Map<PeerAddress, InetSocketAddress> destinations = new HashMap<>();
    private PeerAddress lastDestinationPeer;
    private InetSocketAddress lastDestination;

    protected RoceUdpPort(PeerAddress local) {
        super(local);
    }

    @Override
    public void registerCounters(CounterRegistry registry) {
        registry.register("jrxe_tx_failed", transmitFailures);
        registry.register("jrxe_ecn_ce_received", ceReceived);
        registry.register("jrxe_tx_mcast_unroutable", multicastUnroutable);
        registry.register("jrxe_tx_raw_dropped", () -> {
            RawIpv4Sender raw = rawSender();
            return raw == null ? 0 : raw.packetsDropped();
        });
    }

    /**
     * Sends every packet to UDP port {@code udpPort} of the peer's address instead of 4791. A GID names an address
     * and no port, so two devices that share an address (a host whose loopback has only 127.0.0.1) can reach each
     * other only if each is bound to its own port and sends to the other's: a pairing of jrxe devices, which no
     * other RoCE peer can take part in. The ICRC, and the destination port the capture shows, stay those of 4791,
     * so the packets' bytes are what they would be between two addresses. Set before use.
     */
    public void peersOnPort(int udpPort) {
        if (udpPort < 1 || udpPort > 65_535) {
            throw new IllegalArgumentException("not a UDP port: " + udpPort);
        }
        peerPort = udpPort;
    }

    /** The UDP port of the peers' addresses that packets go to (see {@link #peersOnPort}). */
    protected final int peerPort() {
        return peerPort;
    }

    /** The UDP port this port's socket is bound to, which packets leaving from that socket carry as their source. */
    protected final int boundPort() {
        return local.socketAddress().getPort();
    }

    /** Where a datagram to {@code to} goes: its RoCEv2 address, or that address on the port {@link #peersOnPort} set. */
    protected final InetSocketAddress destination(PeerAddress to) {
        if (peerPort == PeerAddress.ROCE_PORT) {
            return to.socketAddress();
        }
        if (to != lastDestinationPeer) {
            InetSocketAddress a = destinations.get(to);
            if (a == null) {
                a = new InetSocketAddress(to.address(), peerPort);
                destinations.put(to, a);
            }
            lastDestinationPeer = to;
            lastDestination = a;
        }
        return lastDestination;
    }

    /**
     * Whether what this port sends says ECN-capable transport, ECT(0) in the IP header, so that a switch on the way
     * may mark it CE instead of dropping it (RFC 3168). Off, the packets are Not-ECT as kernel rxe's are. Applies
     * to the sockets the port has and to those it opens later; set before use.
     */
    public void ecnCapable(boolean capable) {
        sendTos = capable ? Ecn.ECT_0 : Ecn.NOT_ECT;
        RawIpv4Sender raw = rawSender();
        if (raw != null) {
            raw.tos(sendTos);
        }
        applySendTos();
    }

    /** Whether the port's packets leave ECN-capable (see {@link #ecnCapable}). */
    public boolean ecnCapable() {
        return sendTos == Ecn.ECT_0;
    }

    /** Sets {@link #sendTos} on the UDP sockets the port already has. */
    protected abstract void applySendTos();

    /** How this port's packets leave: a raw socket or UDP sockets, and why. */
    public abstract TransmitPath transmitPath();

    /** The raw socket sender IPv4 packets leave through, or null. */
    protected abstract RawIpv4Sender rawSender();

    /**
     * Whether the RC FLUSH packets this port sends carry the ICRC Linux's rxe computes for them
     * ({@link IcrcCalculator#rxeFlush}) rather than the IBTA's: rxe drops a FLUSH with the IBTA's
     * as corrupt. The port accepts either kind on receipt whatever this says. Set before use.
     */
    public void rxeFlushIcrc(boolean asRxe) {
        sendIcrc.rxeFlush(asRxe);
        RawIpv4Sender raw = rawSender();
        if (raw != null) {
            raw.rxeFlushIcrc(asRxe);
        }
    }

    /**
     * Writes the ICRC of a packet that leaves through a UDP socket from {@code sourcePort}. Over
     * IPv4 it is computed for identification 0: the kernel numbers the datagram, and jrxe peers
     * solve for the number it chose.
     */
    protected final void writeUdpIcrc(ByteBuffer packet, int offset, int length, PeerAddress to, int sourcePort) {
        stampUdpIcrc(packet, offset, length, to, sourcePort);
        corruptAfterIcrc(packet, offset, length);
    }

    private void stampUdpIcrc(ByteBuffer packet, int offset, int length, PeerAddress to, int sourcePort) {
        stampIcrc(sendIcrc, local, to, sourcePort, packet, offset, length);
    }

    /** Writes the ICRC of a packet from {@code from}'s UDP port {@code sourcePort} to {@code to}, IPv4 identification 0. */
    private static void stampIcrc(IcrcCalculator calculator, PeerAddress from, PeerAddress to, int sourcePort, ByteBuffer packet,
                                  int offset, int length) {
        int value = from.ipv6()
                ? calculator.ipv6(from.ipBytes(), to.ipBytes(), sourcePort, PeerAddress.ROCE_PORT, packet, offset, length)
                : calculator.ipv4(from.ipv4(), to.ipv4(), 0, 0x4000, sourcePort, PeerAddress.ROCE_PORT, packet, offset, length);
        IcrcCalculator.write(packet, offset + length - IcrcCalculator.LENGTH, value);
    }

    /**
     * The ICRC the packet would have left with, from the socket it would have left through: the raw socket's, for the
     * identification it would have been given (which is used up), or a UDP socket's, for identification 0.
     */
    @Override
    public final void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (leavesRaw(to) && !corruptionPending()) {
            int identification = rawSender().stampIcrc(packet, offset, length, to, srcPort);
            tapOut(PacketTap.Direction.DROPPED, to, srcPort, identification, packet, offset, length);
            return;
        }
        int sourcePort = udpSourcePort(srcPort, to);
        stampUdpIcrc(packet, offset, length, to, sourcePort);
        tapOut(PacketTap.Direction.DROPPED, to, sourcePort, 0, packet, offset, length);
    }

    /** Whether packets to {@code to} leave through the raw socket rather than a UDP one (null: to any peer). */
    protected abstract boolean leavesRaw(PeerAddress to);

    /**
     * The UDP source port a packet from QP source port {@code srcPort} to {@code to} leaves a UDP socket with: its
     * own, or the port's bound one when a socket of its own cannot be had.
     */
    protected abstract int udpSourcePort(int srcPort, PeerAddress to);

    protected final void tapSent(PeerAddress to, int sourcePort, int identification, ByteBuffer packet, int offset,
                                 int length) {
        tapOut(PacketTap.Direction.SENT, to, sourcePort, identification, packet, offset, length);
    }

    private void tapOut(PacketTap.Direction direction, PeerAddress to, int sourcePort, int identification,
                        ByteBuffer packet, int offset, int length) {
        PacketTap t = tap;
        if (t != null) {
            t.packet(direction, local, to, sourcePort, PeerAddress.ROCE_PORT, identification, sendTos, packet, offset,
                    length, System.nanoTime(), takeSentComment());
        }
    }

    /**
     * A received datagram, sent to {@code destination} (the port's address, or a multicast group it joined) with
     * {@code trafficClass} the TOS byte or traffic class of its IP header (0 where the socket does not tell it):
     * checked, shown to the tap, and handed to the NIC, which finds the ECN codepoint in
     * {@link PacketInfo#trafficClass}, or dropped with its reason.
     */
    protected final void admit(ByteBuffer buffer, int offset, int length, InetSocketAddress sender, PeerAddress destination,
                               int trafficClass) {
        if (sink != null) {
            admit(buffer, offset, length, sourceOf(sender), sender.getPort(), destination, trafficClass);
        }
    }

    /** {@link #admit(ByteBuffer, int, int, InetSocketAddress, PeerAddress, int)} for a sender known by its address and UDP port. */
    protected final void admit(ByteBuffer buffer, int offset, int length, PeerAddress source, int sourcePort,
                               PeerAddress destination, int trafficClass) {
        admit(buffer, offset, length, source, sourcePort, destination, trafficClass, true);
    }

    /**
     * The same, for a packet that may come without its ICRC ({@code checkIcrc} false): one that memory carried from a
     * sender that left it out, where nothing on the way can change a bit. It is taken as sent with IPv4 identification
     * 0, and its ICRC is written into the buffer only for a capture to show.
     */
    protected final void admit(ByteBuffer buffer, int offset, int length, PeerAddress source, int sourcePort,
                               PeerAddress destination, int trafficClass, boolean checkIcrc) {
        PacketSink s = sink;
        if (s == null) {
            return;
        }
        info.source = source;
        info.destination = destination;
        info.sourcePort = sourcePort;
        info.ttl = 64;
        info.trafficClass = trafficClass;
        if (Ecn.of(trafficClass) == Ecn.CE) {
            ceReceived.increment();
        }
        info.flowLabel = 0;
        // Only a capture reads the time; a clock read per packet is a measurable share of a bulk receive.
        info.timestampNanos = tap != null ? System.nanoTime() : 0;
        if (length < BthFlyweight.LENGTH + IcrcCalculator.LENGTH) {
            deliverDrop(s, buffer, offset, length, DropReason.TOO_SHORT);
            return;
        }
        if (!checkIcrc) {
            if (tap != null) {
                stampIcrc(icrc, source, destination, sourcePort, buffer, offset, length);
            }
            info.identification = 0;
        } else if (local.ipv6()) {
            int expected = icrc.ipv6(info.source.ipBytes(), destination.ipBytes(), info.sourcePort, PeerAddress.ROCE_PORT, buffer,
                    offset, length);
            int stored = IcrcCalculator.read(buffer, offset + length - IcrcCalculator.LENGTH);
            if (stored != expected && !(IcrcCalculator.isFlush(buffer, offset) && stored == rxeFlushIcrc.ipv6(info.source.ipBytes(),
                    destination.ipBytes(), info.sourcePort, PeerAddress.ROCE_PORT, buffer, offset, length))) {
                deliverDrop(s, buffer, offset, length, DropReason.BAD_ICRC);
                return;
            }
            info.identification = 0;
        } else {
            int id = solver.solve(info.source.ipv4(), destination.ipv4(), 0x4000, info.sourcePort, PeerAddress.ROCE_PORT, buffer,
                    offset, length);
            if (id == Ipv4IdentificationSolver.NO_SOLUTION && IcrcCalculator.isFlush(buffer, offset)) {
                if (rxeFlushSolver == null) {
                    rxeFlushSolver = new Ipv4IdentificationSolver(true);
                }
                id = rxeFlushSolver.solve(info.source.ipv4(), destination.ipv4(), 0x4000, info.sourcePort, PeerAddress.ROCE_PORT,
                        buffer, offset, length);
            }
            if (id == Ipv4IdentificationSolver.NO_SOLUTION) {
                deliverDrop(s, buffer, offset, length, DropReason.BAD_ICRC);
                return;
            }
            info.identification = id;
        }
        PacketTap t = tap;
        if (t != null) {
            t.packet(PacketTap.Direction.RECEIVED, info.source, destination, info.sourcePort, PeerAddress.ROCE_PORT,
                    info.identification, info.trafficClass, buffer, offset, length, info.timestampNanos, null);
        }
        s.packet(buffer, offset, length, info);
    }

    private void deliverDrop(PacketSink s, ByteBuffer buffer, int offset, int length, DropReason reason) {
        PacketTap t = tap;
        if (t != null) {
            t.packet(PacketTap.Direction.DROPPED, info.source, info.destination, info.sourcePort, PeerAddress.ROCE_PORT, 0,
                    info.trafficClass, buffer, offset, length, info.timestampNanos, "dropped: " + reason.description());
        }
        s.dropped(buffer, offset, length, info, reason);
    }

    private PeerAddress sourceOf(InetSocketAddress sender) {
        InetAddress address = sender.getAddress();
        PeerAddress p = sources.get(address);
        if (p == null) {
            p = PeerAddress.of(address);
            if (sources.size() > 4096) {
                sources.clear();
            }
            sources.put(address, p);
        }
        return p;
    }

    @Override
    public void reportDrop(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
        if (info.timestampNanos == 0) {
            info.timestampNanos = System.nanoTime(); // the tap came after the packet, which was not timed then
        }
        super.reportDrop(buffer, offset, length, info, reason);
    }
}
