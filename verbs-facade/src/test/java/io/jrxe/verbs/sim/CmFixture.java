package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.cm.CmConnection;
import io.jrxe.rnic.cm.CmEvent;
import io.jrxe.rnic.cm.CmEventQueue;
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
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.fault.FaultSpec;
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
    final SimulatedNetwork network;
    private final Arena arena = Arena.ofShared();
    private final List<Node> nodes = new ArrayList<>();
    /** The faults each node's device does to what it sends (on the shared-memory wire, where links have none). */
    private FaultSpec deviceFaults = FaultSpec.NONE;

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
        wire = new FixtureWire(seed);
        network = wire.network;
    }

    /**
     * Every packet sent from now on arrives twice: the links duplicate it on the simulated network, and each node made
     * after this call sends it twice on the shared-memory wire (its device's own {@code --faults}).
     */
    void duplicateEveryPacket() {
        if (wire.shm()) {
            deviceFaults = FaultSpec.parse("dup=1,dir=send");
        } else {
            network.faults(LinkFaults.NONE.withDuplicate(1.0));
        }
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
