package io.jrxe.wire.port.shm;

import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.PolledPort;
import io.jrxe.wire.port.PortWaiter;
import io.jrxe.wire.port.raw.RawIpv4Sender;
import io.jrxe.wire.port.raw.TransmitPath;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.port.udp.RoceUdpPort;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A device's RoCEv2 port on the shared-memory wire: the datagrams a UDP port would send, the same bytes with the same
 * ICRC (over IPv4 for identification 0, as from a UDP socket), go into the receiving device's ring
 * ({@link ShmRing}, a file in {@link ShmDirectory} mapped by every process that talks to it) instead of through the
 * kernel's UDP stack. Each record carries what the IP and UDP headers would have told the receiver: the sender's GID,
 * its UDP source port and the TOS byte. Captures, counters and faults are the UDP port's; only the carriage differs.
 *
 * <p>A full ring drops the packet and counts it ({@code jrxe_shm_ring_full}), as a full socket buffer does: RC sends
 * again. A peer with no ring, one that closed it or whose process died loses what is sent to it
 * ({@code jrxe_shm_peer_absent}) and is looked for again, so a peer restarted on the same address is found. Multicast
 * is not carried. Records are {@link ShmPacketRecord}s. Run by an {@link io.jrxe.wire.port.InvokerLoop}: send and
 * receive on the loop's holder.
 */
public final class ShmPort extends RoceUdpPort implements PolledPort {
    /** 8 MiB: hundreds of full-MTU packets in flight to a device from all its peers together. */
    public static final int DEFAULT_RING_BYTES = 8 << 20;

    private final ShmRing inbox;
    private final ByteBuffer inboxView;
    private final ShmDirectory directory;
    private final Map<PeerAddress, ShmPeer> peers = new HashMap<>();
    private PeerAddress lastPeerAddress;
    private ShmPeer lastPeer;
    private final KnownSources sources = new KnownSources();
    private final SingleWriterCounter ringFull = new SingleWriterCounter();
    private final SingleWriterCounter peerAbsent = new SingleWriterCounter();
    private final SingleWriterCounter malformed = new SingleWriterCounter();
    private final SingleWriterCounter doorbellsRung = new SingleWriterCounter();
    private final ShmRing.RecordHandler deliver = this::deliver;
    private final ShmDoorbell doorbell = new ShmDoorbell();
    private volatile boolean closed;

    private ShmPort(PeerAddress local, ShmRing inbox, ShmDirectory directory) {
        super(local);
        this.inbox = inbox;
        this.inboxView = ShmPacketRecord.view(inbox);
        this.directory = directory;
    }

    /**
     * Makes the ring of the device at {@code local} (its address and UDP port), {@code ADDRESS_PORT.ring} in
     * {@code directory}, of {@code ringBytes} (a power of two). Packets go to the rings of the peers' addresses on
     * 4791, or on the port {@link #peersOnPort} sets (devices that share an address). Any address will do: the wire
     * needs no network interface.
     *
     * @throws PortInUseException with a sentence when another live device has the ring, or the file cannot be made
     */
    public static ShmPort bind(PeerAddress local, ShmDirectory directory, int ringBytes) throws PortInUseException {
        Path file = directory.ringOf(local, local.socketAddress().getPort());
        try {
            Files.createDirectories(directory.path());
            return new ShmPort(local, ShmRing.create(file, ringBytes), directory);
        } catch (IOException e) {
            throw new PortInUseException("cannot make the shared-memory ring " + file + ": " + e.getMessage(), e);
        }
    }

    /** The ring this port reads. */
    public Path ringFile() {
        return inbox.file();
    }

    @Override
    public void registerCounters(CounterRegistry registry) {
        super.registerCounters(registry);
        registry.register("jrxe_shm_ring_full", ringFull);
        registry.register("jrxe_shm_peer_absent", peerAbsent);
        registry.register("jrxe_shm_malformed", malformed);
        registry.register("jrxe_shm_unblocked", inbox::unblocked);
        registry.register("jrxe_shm_doorbells_rung", doorbellsRung);
    }

    @Override
    public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (closed) {
            return;
        }
        if (to.multicast()) {
            multicastUnroutable.increment();
            return;
        }
        writeUdpIcrc(packet, offset, length, to, srcPort);
        tapSent(to, srcPort, 0, packet, offset, length);
        ShmPeer peer = peer(to);
        ShmRing ring = peer.ring(System.nanoTime());
        if (ring == null) {
            peerAbsent.increment();
            return;
        }
        long claimed = ShmPacketRecord.claim(ring, length);
        if (claimed < 0) {
            ringFull.increment();
            return;
        }
        ShmPacketRecord.write(peer.buffer(), (int) claimed, local.gid(), srcPort, sendTos, packet, offset, length);
        if (!ring.commit(claimed)) {
            transmitFailures.increment(); // held so long that the peer gave the record up
        } else if (doorbell.wakeIfAsleep(ring)) {
            doorbellsRung.increment();
        }
    }

    private ShmPeer peer(PeerAddress to) {
        // The engines hand over equal addresses as different objects (a QP's own, a request's source): equality
        // is cheaper than the map's hash of the 16-byte address.
        if (to == lastPeerAddress || to.equals(lastPeerAddress)) {
            return lastPeer;
        }
        ShmPeer p = peers.get(to);
        if (p == null) {
            p = new ShmPeer(directory.ringOf(to, peerPort()), System.nanoTime());
            peers.put(to, p);
        }
        lastPeerAddress = to;
        lastPeer = p;
        return p;
    }

    @Override
    public int receive(int max) {
        if (closed) {
            return 0;
        }
        int n = inbox.read(deliver, max);
        PacketSink s = sink;
        if (n > 0 && s != null) {
            s.burstEnd();
        }
        return n;
    }

    /** A record of the inbox, read through {@link #inboxView}: the engines read packets in network byte order. */
    private void deliver(int type, ByteBuffer ringOrder, int offset, int length) {
        if (!ShmPacketRecord.isPacket(type, length)) {
            malformed.increment();
            return;
        }
        ByteBuffer buffer = inboxView;
        admit(buffer, ShmPacketRecord.packetAt(offset), ShmPacketRecord.packetLength(length),
                sources.at(buffer, ShmPacketRecord.gidAt(offset)), ShmPacketRecord.sourcePort(buffer, offset), local,
                ShmPacketRecord.tos(buffer, offset));
    }

    @Override
    public PortWaiter openWaiter() {
        return new ShmWaiter(inbox);
    }

    @Override
    protected void applySendTos() {
        // each record carries sendTos as it is sent
    }

    @Override
    public TransmitPath transmitPath() {
        return TransmitPath.SHARED_MEMORY;
    }

    @Override
    protected RawIpv4Sender rawSender() {
        return null;
    }

    @Override
    protected boolean leavesRaw(PeerAddress to) {
        return false;
    }

    @Override
    protected int udpSourcePort(int srcPort, PeerAddress to) {
        return srcPort;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (ShmPeer p : peers.values()) {
            p.close();
        }
        inbox.close();
        doorbell.close();
    }
}
