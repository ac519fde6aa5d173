package io.jrxe.wire.sim;

import io.jrxe.wire.port.PeerAddress;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A deterministic network for tests: ports attached at addresses, packets delivered in virtual
 * time with the faults configured per direction, all decisions drawn from one seeded Random.
 * The same seed and the same sends give the same deliveries, so a failing seed replays. It
 * keeps a running hash of every delivery and drop as a trace fingerprint. Ports may join multicast
 * groups; a group's datagrams reach each member, the sender too when it is one. Given a {@link PacketPath} (a
 * fabric of links and switches), it carries packets through that instead of its per-direction delays.
 */
public final class SimulatedNetwork {
    private final VirtualTime time = new VirtualTime();
    // SplittableRandom: java.util.Random's draws for a packet resent every timeout are correlated enough to lose it
    // 7 times running.
    private final SplittableRandom random;
    private final long seed;
    private final Map<PeerAddress, SimulatedPort> ports = new HashMap<>();
    /** Each multicast group's members, in the order they joined (the order copies are decided and delivered in). */
    private final Map<PeerAddress, List<SimulatedPort>> groups = new HashMap<>();
    private final Map<String, LinkFaults> faults = new HashMap<>();
    private LinkFaults defaultFaults = LinkFaults.NONE;
    private PacketFilter filter;
    private PacketPath path;
    private FaultListener faultListener = (fault, from, to, roce) -> { };
    private long sent;
    private long delivered;
    private long lost;
    private long duplicated;
    private long corrupted;
    private long reordered;
    private long unroutable;
    private long pathDropped;
    private long fingerprint = 1125899906842597L;

    public SimulatedNetwork(long seed) {
        this.seed = seed;
        this.random = new SplittableRandom(seed);
    }

    public long seed() {
        return seed;
    }

    public VirtualTime time() {
        return time;
    }

    public SimulatedPort attach(PeerAddress address) {
        if (ports.containsKey(address)) {
            throw new IllegalArgumentException("address " + address + " is already attached to the simulated network");
        }
        SimulatedPort port = new SimulatedPort(this, address);
        ports.put(address, port);
        return port;
    }

    void detach(SimulatedPort port) {
        ports.remove(port.localAddress());
        for (List<SimulatedPort> members : groups.values()) {
            members.remove(port);
        }
    }

    /** The port receives the group's datagrams from now on; a second join changes nothing. */
    void join(PeerAddress group, SimulatedPort port) {
        List<SimulatedPort> members = groups.computeIfAbsent(group, g -> new ArrayList<>());
        if (!members.contains(port)) {
            members.add(port);
        }
    }

    void leave(PeerAddress group, SimulatedPort port) {
        List<SimulatedPort> members = groups.get(group);
        if (members != null) {
            members.remove(port);
        }
    }

    /** The ports that joined the group, in the order they joined. */
    public List<PeerAddress> members(PeerAddress group) {
        return groups.getOrDefault(group, List.of()).stream().map(SimulatedPort::localAddress).toList();
    }

    /** Faults for every direction that has none of its own. */
    public void faults(LinkFaults f) {
        defaultFaults = f;
    }

    /** Faults for packets from one address to another. */
    public void faults(PeerAddress from, PeerAddress to, LinkFaults f) {
        faults.put(from + ">" + to, f);
    }

    /**
     * Carries every packet from now on through {@code p} (a fabric of links and switches) instead of the per-direction
     * delays. The configured losses, duplicates and corruption still apply to each packet before it enters the path;
     * the configured delays and reordering do not (the path's links give the delays). Set once, before traffic.
     */
    public void path(PacketPath p) {
        if (path != null) {
            throw new IllegalStateException("the simulated network has a packet path already");
        }
        path = p;
        p.install(time, random, new PacketPath.Ends() {
            @Override
            public void arrived(Frame frame) {
                deliver(frame.source, frame.destination, frame.receiver, frame.roce, frame.sourcePort,
                        frame.identification, frame.trafficClass);
            }

            @Override
            public void dropped(Frame frame) {
                pathDropped++;
                trace(1, frame.roce);
                faultListener.fault(FaultListener.Fault.LOST, frame.source, frame.receiver, frame.roce);
            }
        });
    }

    /** Installs (or with null removes) the test's packet filter. */
    public void filter(PacketFilter f) {
        filter = f;
    }

    /** Tells {@code listener} of every fault from now on (one listener; null stops telling). */
    public void listen(FaultListener listener) {
        faultListener = listener != null ? listener : (fault, from, to, roce) -> { };
    }

    /**
     * Puts a packet on the wire as if {@code from} had sent it (a ghost ACK, a forged response):
     * the ICRC is computed for it, then it meets the same faults as any other packet.
     */
    public void inject(PeerAddress from, PeerAddress to, byte[] roce, int srcPort) {
        SimulatedPort port = ports.get(from);
        if (port == null) {
            throw new IllegalArgumentException(from + " is not attached to the simulated network");
        }
        port.send(java.nio.ByteBuffer.wrap(roce.clone()), 0, roce.length, to, srcPort);
    }

    /**
     * A frame leaves a port: decide its fate and schedule its delivery. A frame to a multicast group goes to every
     * port that joined it, the sender's own too (as a host's IP_MULTICAST_LOOP gives its own sockets a copy), each
     * copy meeting the faults of the link from the sender to that port.
     */
    void carry(SimulatedPort from, PeerAddress to, byte[] datagram, int srcPort, int identification, int trafficClass) {
        sent++;
        if (filter != null) {
            PacketFilter.Verdict v = filter.inspect(from.localAddress(), to, datagram);
            if (v == PacketFilter.Verdict.DROP) {
                lost++;
                trace(1, datagram);
                faultListener.fault(FaultListener.Fault.LOST, from.localAddress(), to, datagram);
                return;
            }
            if (v == PacketFilter.Verdict.MODIFIED) {
                from.refreshIcrc(to, datagram, srcPort, identification);
            }
        }
        if (!to.multicast()) {
            carryTo(from, to, to, datagram, srcPort, identification, trafficClass);
            return;
        }
        List<SimulatedPort> members = groups.getOrDefault(to, List.of());
        if (members.isEmpty()) {
            unroutable++;
            trace(2, datagram);
            return;
        }
        for (SimulatedPort member : List.copyOf(members)) {
            carryTo(from, to, member.localAddress(), datagram.clone(), srcPort, identification, trafficClass);
        }
    }

    /** One copy of a frame to {@code to} on its way to the port at {@code link}'s far end. */
    private void carryTo(SimulatedPort from, PeerAddress to, PeerAddress link, byte[] datagram, int srcPort, int identification,
                         int trafficClass) {
        // No text key to build per packet when no direction has faults of its own (a fabric run's case).
        LinkFaults f = faults.isEmpty() ? defaultFaults : faults.getOrDefault(from.localAddress() + ">" + link, defaultFaults);
        if (random.nextDouble() < f.loss()) {
            lost++;
            trace(1, datagram);
            faultListener.fault(FaultListener.Fault.LOST, from.localAddress(), link, datagram);
            return;
        }
        int copies = random.nextDouble() < f.duplicate() ? 2 : 1;
        if (copies == 2) {
            duplicated++;
            faultListener.fault(FaultListener.Fault.DUPLICATED, from.localAddress(), link, datagram);
        }
        // What the listener is told of is the packet as sent, whatever a flipped bit does to the copy delivered.
        byte[] original = f.corrupt() > 0 ? datagram.clone() : datagram;
        for (int c = 0; c < copies; c++) {
            byte[] bytes = c == 0 ? datagram : datagram.clone();
            if (random.nextDouble() < f.corrupt()) {
                int bit = random.nextInt(bytes.length * 8);
                bytes[bit >>> 3] ^= (byte) (1 << (bit & 7));
                corrupted++;
                faultListener.fault(FaultListener.Fault.CORRUPTED, from.localAddress(), link, original);
            }
            if (path != null) {
                path.carry(path.frame().set(from.localAddress(), to, link, bytes, srcPort, identification, trafficClass));
                continue;
            }
            long delay = f.delayNanos();
            if (f.reorderNanos() > 0 && random.nextDouble() < f.reorder()) {
                delay += 1 + (long) (random.nextDouble() * f.reorderNanos());
                reordered++;
                faultListener.fault(FaultListener.Fault.REORDERED, from.localAddress(), link, original);
            }
            PeerAddress source = from.localAddress();
            time.schedule(delay, () -> deliver(source, to, link, bytes, srcPort, identification, trafficClass));
        }
    }

    private void deliver(PeerAddress source, PeerAddress to, PeerAddress link, byte[] bytes, int srcPort, int identification,
                         int trafficClass) {
        SimulatedPort port = ports.get(link);
        if (port == null || (to.multicast() && !groups.getOrDefault(to, List.of()).contains(port))) {
            unroutable++; // gone, or left the group while the copy was on its way
            trace(2, bytes);
            return;
        }
        delivered++;
        trace(3, bytes);
        port.receive(source, to, bytes, srcPort, identification, trafficClass);
    }

    private void trace(int kind, byte[] bytes) {
        long h = fingerprint * 31 + kind;
        h = h * 31 + time.nanoTime();
        h = h * 31 + java.util.Arrays.hashCode(bytes);
        fingerprint = h;
    }

    /** A hash over every delivery and loss, in order, with its time: equal traces have equal fingerprints. */
    public long fingerprint() {
        return fingerprint;
    }

    public long sent() { return sent; }
    public long delivered() { return delivered; }
    public long lost() { return lost; }
    public long duplicated() { return duplicated; }
    public long corrupted() { return corrupted; }
    public long reordered() { return reordered; }
    public long unroutable() { return unroutable; }
    /** Packets the packet path dropped (a full switch queue), apart from the configured losses. */
    public long pathDropped() { return pathDropped; }

    @Override
    public String toString() {
        return String.format("seed=%d sent=%d delivered=%d lost=%d duplicated=%d reordered=%d corrupted=%d",
                seed, sent, delivered, lost, duplicated, reordered, corrupted);
    }
}
