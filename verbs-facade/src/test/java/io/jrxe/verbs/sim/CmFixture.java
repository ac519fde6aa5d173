package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmEvent;
import io.jrxe.rnic.cm.CmEventQueue;
import io.jrxe.rnic.cm.CmState;
import io.jrxe.verbs.cm.CmEventType;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.engine.GsiCounters;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.fault.FaultSpec;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Nodes with a CM on one simulated network: each a device, a PD, a CQ, a registered buffer and
 * RC QPs made on demand, and an event queue whose events are collected into a list as virtual
 * time runs. Everything runs on the test's thread, the NIC thread of every device.
 * <p>
 * With {@code -Djrxe.sim.wire=shm} the nodes are on the shared-memory wire, in real time ({@link FixtureWire}): the
 * waits run every node's NIC on the test's thread, and a call on a node's CM runs as its NIC's owner ({@link NodeCm}).
 */
final class CmFixture implements AutoCloseable {
    static final long SECOND = 1_000_000_000L;
    static final long SERVICE = 0x0000_0000_0106_1c06L; // rping's: TCP port space, port 7174
    private static final AtomicLong NAMES = new AtomicLong();

    private final FixtureWire wire;
    private final long seed;
    final SimulatedNetwork network;
    private final Arena arena = Arena.ofShared();
    private final List<Node> nodes = new ArrayList<>();
    /** The faults each node's device does to what it sends (on the shared-memory wire, where links have none). */
    private FaultSpec deviceFaults = FaultSpec.NONE;
    /** What {@link #faults} asked for. */
    private LinkFaults faults = LinkFaults.NONE;

    final class Node {
        final EmulatedDevice device;
        final Context ctx;
        final Pd pd;
        final Cq cq;
        final MemorySegment memory;
        final Mr mr;
        final PeerAddress address;
        final CmEventQueue queue = new CmEventQueue();
        private final NodeCm cm;
        final List<CmEvent> events = new ArrayList<>();

        Node(String ip) throws Exception {
            DeviceConfig config = DeviceConfig.of("cm" + NAMES.incrementAndGet(), InetAddress.getByName(ip))
                    .withInterfaceMtu(1500).withFaults(deviceFaults);
            device = wire.device(config);
            ctx = device.open();
            pd = ctx.allocPd();
            cq = ctx.createCq(256, null);
            memory = arena.allocate(1 << 16, 4096);
            mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            address = PeerAddress.of(InetAddress.getByName(ip));
            cm = new NodeCm(device.nic());
        }

        /** The node's connection manager, each call run as its NIC's owner. */
        NodeCm cm() {
            return cm;
        }

        GsiCounters gsi() {
            return device.nic().cm().gsi().counters();
        }

        long counter(Counter c) {
            return device.nic().resources().counters().get(c);
        }

        Qp newQp() throws Exception {
            return pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, new QpCapabilities(64, 64, 2, 2, 0), false));
        }

        QueuePair queuePair(Qp qp) {
            return device.nic().resources().qp(qp.qpNum());
        }

        /** Moves the queue's new events into {@link #events}. */
        void collect() {
            CmEvent e;
            while ((e = queue.poll()) != null) {
                events.add(e);
            }
        }

        CmEvent last(CmEventType type) {
            collect();
            for (int i = events.size() - 1; i >= 0; i--) {
                if (events.get(i).type() == type) {
                    return events.get(i);
                }
            }
            return null;
        }

        long count(CmEventType type) {
            collect();
            return events.stream().filter(e -> e.type() == type).count();
        }

        List<CmEventType> types() {
            collect();
            return events.stream().map(CmEvent::type).toList();
        }
    }

    CmFixture(long seed) {
        this.seed = seed;
        wire = new FixtureWire(seed);
        network = wire.network;
    }

    /**
     * Every packet sent from now on meets {@code links}' loss, duplication, reordering and corruption: on every link of
     * the simulated network, or on the shared-memory wire from the device of each node made after this call (its own
     * {@code --faults}, drawn from the fixture's seed).
     */
    void faults(LinkFaults links) {
        faults = links;
        if (wire.shm()) {
            StringBuilder spec = new StringBuilder("dir=send,seed=").append(seed);
            rate(spec, "loss", links.loss());
            rate(spec, "dup", links.duplicate());
            rate(spec, "corrupt", links.corrupt());
            if (links.reorder() > 0) {
                rate(spec, "reorder", links.reorder());
                spec.append(':').append(links.reorderNanos()).append("ns");
            }
            deviceFaults = FaultSpec.parse(spec.toString());
        } else {
            network.faults(links);
        }
    }

    /** How many packets {@link #faults} lost, duplicated, held back or corrupted so far. */
    long faultsDone() throws VerbsException {
        if (!wire.shm()) {
            return network.lost() + network.duplicated() + network.reordered() + network.corrupted();
        }
        long n = 0;
        for (Node node : nodes) {
            n += FaultyPort.faultsDone(node.ctx.counters());
        }
        return n;
    }

    private static void rate(StringBuilder spec, String name, double p) {
        if (p > 0) {
            spec.append(',').append(name).append('=').append(p);
        }
    }

    /**
     * Stops or resumes {@link #faults}: the simulated network's links carry packets as they are, or each node's device
     * leaves its packets alone, while suspended.
     */
    void suspendFaults(boolean suspend) {
        if (wire.shm()) {
            for (Node n : nodes) {
                if (n.device.nic().port() instanceof FaultyPort f) {
                    f.suspend(suspend);
                }
            }
        } else {
            network.faults(suspend ? LinkFaults.NONE : faults);
        }
    }

    /**
     * Whether nothing more happens by itself: on the simulated network, every timer has fired; on the shared-memory
     * wire, where real time has no such end, no packet is on its way ({@link FixtureWire#nothingInFlight}) and every
     * communication of every CM is ESTABLISHED (the one state without a timer).
     */
    boolean quiet() {
        if (!wire.shm()) {
            return network.time().idle();
        }
        if (!wire.nothingInFlight(nodes.stream().map(n -> n.device).toList())) {
            return false;
        }
        for (Node n : nodes) {
            for (CmConnection c : n.cm().connections()) {
                if (c.state() != CmState.ESTABLISHED) {
                    return false;
                }
            }
        }
        return true;
    }

    Node node(String ip) throws Exception {
        Node n = new Node(ip);
        nodes.add(n);
        return n;
    }

    /** The fixture's clock: virtual time, or on the shared-memory wire the JVM's. */
    long nanoTime() {
        return wire.nanoTime();
    }

    /** Installs (null: removes) a test's packet filter on the wire, for every node made so far ({@link FixtureWire#filter}). */
    void filter(PacketFilter f) {
        wire.filter(f, nodes.stream().map(n -> n.device).toArray(EmulatedDevice[]::new));
    }

    /** Runs virtual time until the condition holds; false when the virtual deadline passed first. */
    boolean runUntil(BooleanSupplier done, long virtualNanos) {
        return wire.runUntil(this::step, done, virtualNanos);
    }

    /** Runs virtual time for a while (real time on the shared-memory wire), collecting events. */
    void run(long virtualNanos) {
        wire.runFor(this::step, virtualNanos);
    }

    /** Collects every node's events, on the shared-memory wire after running its NIC on this thread. */
    private void step() {
        for (Node n : nodes) {
            wire.invoke(n.device);
            n.collect();
        }
    }

    void await(BooleanSupplier done, long virtualNanos, String what) {
        if (!runUntil(done, virtualNanos)) {
            throw new AssertionError(what + " did not happen after " + wire.waited() + "; events "
                    + nodes.stream().map(Node::types).toList() + "; " + network);
        }
    }

    /** Runs virtual time until nothing is scheduled any more (every timer has fired) or the bound passes. */
    void settle(long virtualNanos) {
        runUntil(() -> network.time().idle(), virtualNanos);
        nodes.forEach(Node::collect);
    }

    /**
     * {@link #settle(long)}, after which the test asserts that {@code settled} came about (and that nothing else did). On
     * the shared-memory wire, which has no end of its timers to wait for, the wait is for {@code settled}.
     */
    void settle(long virtualNanos, BooleanSupplier settled) {
        wire.awaitOnShm(this::step, settled);
        settle(virtualNanos);
    }

    /** Puts a packet made by hand on the wire as if {@code from} had sent it ({@link FixtureWire#inject}). */
    void inject(PeerAddress from, PeerAddress to, byte[] roce, int srcPort) {
        wire.inject(from, to, roce, srcPort);
    }

    static boolean in(CmConnection c, io.jrxe.rnic.cm.CmState s) {
        return c.state() == s;
    }

    @Override
    public void close() {
        wire.close();
        arena.close();
    }
}
