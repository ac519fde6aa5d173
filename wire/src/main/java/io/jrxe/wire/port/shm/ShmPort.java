package io.jrxe.wire.port.shm;

import io.jrxe.wire.port.MulticastJoinException;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.PolledPort;
import io.jrxe.wire.port.PortWaiter;
import io.jrxe.wire.port.raw.RawIpv4Sender;
import io.jrxe.wire.port.raw.TransmitPath;
import io.jrxe.wire.port.udp.MulticastInterface;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.port.udp.RoceUdpPort;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A device's RoCEv2 port on the shared-memory wire: the datagrams a UDP port would send go into the receiving device's
 * ring ({@link ShmRing}, a file in {@link ShmDirectory} mapped by every process that talks to it) instead of through the
 * kernel's UDP stack. Each record carries what the IP and UDP headers would have told the receiver: the sender's GID,
 * its UDP source port and the TOS byte. Captures, counters and faults are the UDP port's; only the carriage differs.
 *
 * <p>The ICRC is left to where it can be seen or matters, as a NIC with ICRC offload leaves it to its hardware: memory
 * flips no bits on the way, and the ICRC was most of what a small packet cost each side. A packet carries the ICRC a
 * UDP socket's datagram would (over IPv4 for identification 0) when a capture sees it leave, a test's filter or the
 * device's own corruption fault may change it, or the receiving ring asks for ICRCs ({@link ShmRing#askForIcrcs}: a
 * conformance tester, or a ring that took an abandoned record over); the record says whether it does, and the receiver
 * checks the ICRC of every packet that carries one, and of every packet once its own ring asked. A capture on the
 * receiving side writes the ICRC of a packet that came without one before it shows it, so every capture holds valid
 * ICRCs. {@link #ICRC_ON_EVERY_PACKET} stamps and checks every packet instead.
 *
 * <p>A full ring drops the packet and counts it ({@code jrxe_shm_ring_full}), as a full socket buffer does: RC sends
 * again. A peer with no ring, one that closed it or whose process died loses what is sent to it
 * ({@code jrxe_shm_peer_absent}) and is looked for again, so a peer restarted on the same address is found. A packet
 * to a multicast group goes into the ring of every device that joined the group ({@link ShmGroups}), this one too
 * when it did, as a UDP socket with multicast loopback receives its own; a device reads a group's packets only while
 * it is a member. Records are {@link ShmPacketRecord}s. Run by an {@link io.jrxe.wire.port.InvokerLoop}: send and
 * receive on the loop's holder; join and leave on any thread.
 */
public final class ShmPort extends RoceUdpPort implements PolledPort {
    /** 8 MiB: hundreds of full-MTU packets in flight to a device from all its peers together. */
    public static final int DEFAULT_RING_BYTES = 8 << 20;
    /**
     * {@code -Djrxe.shm.icrc=every-packet}: every packet this JVM sends carries its ICRC, and every packet to its devices
     * is checked, as over UDP. Otherwise a packet carries its ICRC only where it can be seen or changed.
     */
    static final boolean ICRC_ON_EVERY_PACKET = "every-packet".equals(System.getProperty("jrxe.shm.icrc"));

    private final ShmRing inbox;
    private final ByteBuffer inboxView;
    private final ShmDirectory directory;
    private final Map<PeerAddress, ShmPeer> peers = new HashMap<>();
    private PeerAddress lastPeerAddress;
    private ShmPeer lastPeer;
    private final KnownSources sources = new KnownSources();
    private final ShmGroups groups;
    /** Where each group's packets go, by group; the sending thread only. */
    private final Map<PeerAddress, GroupRoute> routes = new HashMap<>();
    /** The members' rings, by ring file, shared by every group's route; the sending thread only. */
    private final Map<Path, ShmPeer> members = new HashMap<>();
    /** The groups this device joined, read by the receiving thread, replaced whole by join and leave. */
    private volatile PeerAddress[] joined = new PeerAddress[0];
    private final KnownSources groupsHeard = new KnownSources();
    private final SingleWriterCounter ringFull = new SingleWriterCounter();
    private final SingleWriterCounter peerAbsent = new SingleWriterCounter();
    private final SingleWriterCounter malformed = new SingleWriterCounter();
    private final SingleWriterCounter doorbellsRung = new SingleWriterCounter();
    private final ShmRing.RecordHandler deliver = this::deliver;
    private final ShmDoorbell doorbell = new ShmDoorbell();
    private volatile boolean closed;
    /** A test's hand on this wire, or null; installed by any thread, read by the sending one. */
    private volatile PacketFilter filter;

    private ShmPort(PeerAddress local, ShmRing inbox, ShmDirectory directory, ShmGroups groups) {
        super(local);
        this.inbox = inbox;
        this.inboxView = ShmPacketRecord.view(inbox);
        this.directory = directory;
        this.groups = groups;
    }

    /** A group's members as a sender last listed them, and the membership generation it listed them at. */
    private static final class GroupRoute {
        long listedAt = -1;
        ShmPeer[] members = new ShmPeer[0];
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
        ShmRing ring = null;
        ShmGroups groups = new ShmGroups(directory);
        try {
            Files.createDirectories(directory.path());
            ring = ShmRing.create(file, ringBytes);
            groups.leaveAll(ring.file()); // the groups of a device that had this ring and died without leaving them
            if (ICRC_ON_EVERY_PACKET) {
                ring.askForIcrcs();
            }
            return new ShmPort(local, ring, directory, groups);
        } catch (IOException e) {
            groups.close();
            if (ring != null) {
                ring.close();
            }
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
        PacketFilter f = filter;
        boolean stamped = ICRC_ON_EVERY_PACKET || tap != null || f != null || corruptionPending();
        if (stamped) {
            writeUdpIcrc(packet, offset, length, to, srcPort);
        }
        tapSent(to, srcPort, 0, packet, offset, length);
        if (f != null) {
            byte[] roce = new byte[length];
            packet.get(offset, roce);
            PacketFilter.Verdict verdict = f.inspect(local, to, roce);
            if (verdict == PacketFilter.Verdict.DROP) {
                return;
            }
            if (verdict == PacketFilter.Verdict.MODIFIED || verdict == PacketFilter.Verdict.CORRUPTED) {
                packet = ByteBuffer.wrap(roce); // the NIC's buffer may be sent again as it was
                offset = 0;
                if (verdict == PacketFilter.Verdict.MODIFIED) {
                    writeUdpIcrc(packet, 0, length, to, srcPort);
                }
            }
        }
        if (to.multicast()) {
            long now = System.nanoTime();
            for (ShmPeer member : route(to, now).members) {
                stamped = deliverTo(member, now, packet, offset, length, to, srcPort, stamped);
            }
        } else {
            deliverTo(peer(to), System.nanoTime(), packet, offset, length, to, srcPort, stamped);
        }
    }

    /**
     * Writes the packet to {@code to} (a device, or a group one of whose members this is) into one device's ring, with
     * its ICRC when it was {@code stamped} or that ring's consumer asks for ICRCs. Whether it is stamped now.
     */
    private boolean deliverTo(ShmPeer peer, long now, ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort,
                              boolean stamped) {
        ShmRing ring = peer.ring(now);
        if (ring == null) {
            peerAbsent.increment();
            return stamped;
        }
        if (!stamped && ring.icrcsWanted()) {
            writeUdpIcrc(packet, offset, length, to, srcPort);
            stamped = true;
        }
        boolean multicast = to.multicast();
        long claimed = multicast ? ShmPacketRecord.claimMulticast(ring, length) : ShmPacketRecord.claim(ring, length);
        if (claimed < 0) {
            ringFull.increment();
            return stamped;
        }
        if (multicast) {
            ShmPacketRecord.writeMulticast(peer.buffer(), (int) claimed, local.gid(), srcPort, sendTos, stamped, to.gid(),
                    packet, offset, length);
        } else {
            ShmPacketRecord.write(peer.buffer(), (int) claimed, local.gid(), srcPort, sendTos, stamped, packet, offset, length);
        }
        if (!ring.commit(claimed)) {
            transmitFailures.increment(); // held so long that the peer gave the record up
        } else if (doorbell.wakeIfAsleep(ring)) {
            doorbellsRung.increment();
        }
        return stamped;
    }

    /** The group's members, listed again when the membership changed since they were last listed. */
    private GroupRoute route(PeerAddress group, long now) {
        GroupRoute r = routes.computeIfAbsent(group, g -> new GroupRoute());
        try {
            long generation = groups.generation();
            if (generation != r.listedAt) {
                List<Path> rings = groups.members(group, directory);
                ShmPeer[] listed = new ShmPeer[rings.size()];
                for (int i = 0; i < listed.length; i++) {
                    listed[i] = members.computeIfAbsent(rings.get(i), f -> new ShmPeer(f, now));
                }
                r.members = listed;
                r.listedAt = generation;
            }
        } catch (IOException e) {
            transmitFailures.increment(); // the membership could not be read: this packet reaches the members last listed
        }
        return r;
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

    /**
     * Installs (or with null removes) a test's packet filter, a hand on the wire past this port: it sees each packet
     * as it left (after the device's own faults, with its ICRC, shown to the capture as sent) and may lose it or change
     * it on its way (its verdict says whether its ICRC is written again), as {@link io.jrxe.wire.sim.SimulatedNetwork#filter} does on the
     * simulated network. A test hook: each packet it sees is copied.
     */
    public void filter(PacketFilter f) {
        filter = f;
    }

    /** Whether a packet waits in this port's ring. */
    public boolean hasPackets() {
        return !closed && inbox.hasRecords();
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
        PeerAddress destination = local;
        if (type == ShmPacketRecord.MULTICAST_TYPE) {
            destination = groupsHeard.at(buffer, ShmPacketRecord.groupAt(offset));
            if (!joined(destination)) {
                return; // sent before this device left the group: a host that left no longer receives its datagrams
            }
        }
        admit(buffer, ShmPacketRecord.packetAt(type, offset), ShmPacketRecord.packetLength(type, length),
                sources.at(buffer, ShmPacketRecord.gidAt(offset)), ShmPacketRecord.sourcePort(buffer, offset), destination,
                ShmPacketRecord.tos(buffer, offset), ShmPacketRecord.icrcStamped(buffer, offset) || inbox.icrcsWanted());
    }

    private boolean joined(PeerAddress group) {
        for (PeerAddress g : joined) {
            if (g.equals(group)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public synchronized void joinGroup(PeerAddress group) throws MulticastJoinException {
        MulticastInterface.checkFamily(local, group);
        if (joined(group)) {
            return;
        }
        try {
            groups.join(group, inbox.file());
        } catch (IOException e) {
            throw new MulticastJoinException("cannot join " + group + " on the shared-memory wire in " + directory.path()
                    + ": " + e.getMessage(), e);
        }
        PeerAddress[] now = Arrays.copyOf(joined, joined.length + 1);
        now[now.length - 1] = group;
        joined = now;
    }

    @Override
    public synchronized void leaveGroup(PeerAddress group) {
        if (!joined(group)) {
            return;
        }
        joined = Arrays.stream(joined).filter(g -> !g.equals(group)).toArray(PeerAddress[]::new);
        try {
            groups.leave(group, inbox.file());
        } catch (IOException e) {
            // The file stays: senders keep writing this device's ring, and its reads drop what is not its group's.
        }
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
        try {
            groups.leaveAll(inbox.file());
        } catch (IOException e) {
            // left for the next device on this ring to clear at its bind
        }
        groups.close();
        for (ShmPeer p : peers.values()) {
            p.close();
        }
        for (ShmPeer p : members.values()) {
            p.close();
        }
        inbox.close();
        doorbell.close();
    }
}
