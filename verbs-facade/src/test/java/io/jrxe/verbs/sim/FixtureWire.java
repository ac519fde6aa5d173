package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.transport.InvokedTransport;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.fault.FaultyPort;
import io.jrxe.wire.port.shm.ShmDirectory;
import io.jrxe.wire.port.shm.ShmPort;
import io.jrxe.wire.port.udp.PortInUseException;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Where a fixture's devices are, and how its waits run: one simulated network in virtual time, or, with
 * {@code -Djrxe.sim.wire=shm} (verbs-facade's {@code engine-tests-on-shm} run), the shared-memory wire with rings in
 * a directory of their own, in real time. There a wait for something runs the fixture's step (which runs its NICs
 * on the test's thread and collects what they made) until it came or its time, at least
 * {@link #SHM_LEAST_WAIT_NANOS}, is up; {@link #network} is there but carries nothing. A test's hands on the wire (a
 * packet filter, packets made by hand) work on both.
 */
final class FixtureWire implements AutoCloseable {
    /**
     * The tag of a test that holds in virtual time only: it asserts what real time does not guarantee (memory unmapped
     * while a response streams out, a run replayed to the nanosecond), so the run on the shared-memory wire leaves it out.
     */
    static final String VIRTUAL_TIME = "virtual-time";
    /** Whether the fixtures of this JVM are on the shared-memory wire. */
    static final boolean ON_SHM = "shm".equals(System.getProperty("jrxe.sim.wire"));
    /** A wait for something on the shared-memory wire is real time: a virtual deadline below this, JIT and all, is this. */
    private static final long SHM_LEAST_WAIT_NANOS = 30_000_000_000L;
    /**
     * The least ACK timeout exponent on the shared-memory wire, 4.096 us x 2^16 = 268 ms: in real time a response can be
     * late by a JIT compile or a GC pause, and a timer that fired early would resend what the tests count.
     */
    private static final int SHM_LEAST_TIMEOUT = 16;
    /**
     * An ODP fault cost for a case that acts while a page is still on its way in: on the shared-memory wire a page does
     * not come in during the test, which in real time may reach its next step late by any time.
     */
    private static final long SHM_PAGE_ON_ITS_WAY_NANOS = 3_600_000_000_000L;
    /** The UDP port of {@link #inject}'s own ports on the shared-memory wire. */
    private static final int FORGE_PORT = 4792;

    final SimulatedNetwork network;
    /** The rings' directory on the shared-memory wire, else null. */
    private final Path rings;
    /** The devices {@link #device} made, which {@link #close} removes. */
    private final List<EmulatedDevice> devices = new ArrayList<>();
    /** {@link #inject}'s ports on the shared-memory wire, by the address they send from. */
    private final Map<PeerAddress, ShmPort> forgers = new HashMap<>();
    /** The test's packet filter on the shared-memory wire, for {@link #inject}'s ports made after it; null for none. */
    private PacketFilter filter;

    /** An ODP fault cost: {@code virtualNanos} on the simulated network, {@link #SHM_PAGE_ON_ITS_WAY_NANOS} on shm. */
    static long pageStillOnItsWay(long virtualNanos) {
        return ON_SHM ? SHM_PAGE_ON_ITS_WAY_NANOS : virtualNanos;
    }

    FixtureWire(long seed) {
        network = new SimulatedNetwork(seed);
        try {
            rings = ON_SHM ? Files.createTempDirectory("jrxe-fixture-rings") : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make a directory for the rings", e);
        }
    }

    /**
     * An RC QP's ACK timeout exponent on the fixtures' wire: {@code exponent}, at least {@link #SHM_LEAST_TIMEOUT} on
     * shm; 0 (no timeout, IBTA's wait for ever) stays 0.
     */
    static int ackTimeout(int exponent) {
        return ON_SHM && exponent != 0 ? Math.max(exponent, SHM_LEAST_TIMEOUT) : exponent;
    }

    /** {@link QpConnect#to} for an RC QP of a fixture: rdma-core's defaults, the ACK timeout {@link #ackTimeout}'s. */
    static QpConnect connectTo(QpPeer peer) {
        QpConnect c = QpConnect.to(peer);
        return c.timeout(ackTimeout(c.rts(QpType.RC).timeout()));
    }

    /** Whether this fixture is on the shared-memory wire. */
    boolean shm() {
        return rings != null;
    }

    /** The rings' directory: on the shared-memory wire only. */
    ShmDirectory rings() {
        if (rings == null) {
            throw new IllegalStateException("the fixture is on the simulated network");
        }
        return new ShmDirectory(rings);
    }

    /** A device on this wire, removed when the wire is {@link #close}d. */
    EmulatedDevice device(DeviceConfig config) throws PortInUseException {
        EmulatedDevice d = rings != null ? Verbs.emulated().createShm(new NicContext(config), rings())
                : Verbs.emulated().createSimulated(config, network);
        devices.add(d);
        return d;
    }

    /** Runs a device's NIC once on this thread on the shared-memory wire; on the simulated network, time runs it. */
    void invoke(EmulatedDevice d) {
        if (rings != null) {
            d.nic().transport().invoker().invoke();
        }
    }

    /**
     * Runs {@code step} and time until {@code done}: virtual time until the virtual deadline, or real time (at least
     * the shared-memory wait) on the shared-memory wire. False when the time passed first.
     */
    boolean runUntil(Runnable step, BooleanSupplier done, long virtualNanos) {
        if (rings != null) {
            return poll(step, done, Math.max(virtualNanos, SHM_LEAST_WAIT_NANOS));
        }
        return network.time().runUntil(() -> {
            step.run();
            return done.getAsBoolean();
        }, virtualNanos);
    }

    /**
     * On the shared-memory wire, runs {@code step} until {@code seen} (at most the shared-memory wait): what a test
     * asserts after a run of virtual time has then come about, since a packet's way there has no bound. On the
     * simulated network, nothing: the run that follows decides.
     */
    void awaitOnShm(Runnable step, BooleanSupplier seen) {
        if (rings != null) {
            poll(step, seen, SHM_LEAST_WAIT_NANOS);
        }
    }

    /**
     * Installs (null: removes) a test's packet filter: on the simulated network, or on each device's shared-memory
     * port and {@link #inject}'s, so that it sees packets made by hand too, as on the simulated network.
     */
    void filter(PacketFilter f, EmulatedDevice... devices) {
        if (rings == null) {
            network.filter(f);
            return;
        }
        filter = f;
        for (EmulatedDevice d : devices) {
            shmPort(d).filter(f);
        }
        forgers.values().forEach(forger -> forger.filter(f));
    }

    /**
     * On the shared-memory wire, whether no packet is on its way between {@code devices}: none waits in a ring, none is
     * held back by a device's own faults (a delay, a reordering).
     */
    boolean nothingInFlight(List<EmulatedDevice> devices) {
        for (EmulatedDevice d : devices) {
            if (d.nic().port() instanceof FaultyPort f && f.holding() > 0
                    || shmPort(d).hasPackets()) {
                return false;
            }
        }
        return true;
    }

    /** A device's port on the shared-memory wire, beneath its faults. */
    private static ShmPort shmPort(EmulatedDevice d) {
        return (ShmPort) ((InvokedTransport) d.nic().transport()).wirePort();
    }

    /** Makes {@code third} an address packets can be {@link #inject}ed from: the simulated network attaches it. */
    void attach(PeerAddress third) {
        if (rings == null) {
            network.attach(third);
        }
    }

    /**
     * Puts a packet made by hand on the wire as if {@code from} had sent it from UDP port {@code srcPort}, its ICRC
     * computed. On the shared-memory wire it leaves a port of its own at {@code from}'s address (UDP port
     * {@link #FORGE_PORT}), as a third program on that host would send it, and goes straight into {@code to}'s ring.
     */
    void inject(PeerAddress from, PeerAddress to, byte[] roce, int srcPort) {
        if (rings == null) {
            network.inject(from, to, roce, srcPort);
            return;
        }
        try {
            ShmPort forger = forgers.get(from);
            if (forger == null) {
                forger = ShmPort.bind(PeerAddress.of(from.address(), FORGE_PORT), rings(), 1 << 16);
                forger.filter(filter);
                forgers.put(from, forger);
            }
            forger.send(ByteBuffer.wrap(roce.clone()), 0, roce.length, to, srcPort);
        } catch (PortInUseException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
    }

    /** Runs time for a while (real time on the shared-memory wire), then {@code step}. */
    void runFor(Runnable step, long virtualNanos) {
        if (rings != null) {
            poll(step, () -> false, virtualNanos);
            return;
        }
        network.time().runFor(virtualNanos);
        step.run();
    }

    /** The fixture's clock: virtual time, or on the shared-memory wire the JVM's. */
    long nanoTime() {
        return rings == null ? network.time().nanoTime() : System.nanoTime();
    }

    /** How long a failed wait waited, for its message. */
    String waited() {
        return rings != null ? "the wait on the shared-memory wire" : network.time().nanoTime() + " ns virtual";
    }

    private static boolean poll(Runnable step, BooleanSupplier done, long nanos) {
        long deadline = System.nanoTime() + nanos;
        do {
            step.run();
            if (done.getAsBoolean()) {
                return true;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - deadline < 0);
        return false;
    }

    /**
     * Removes the devices {@link #device} made, closes the ports {@link #inject} made and removes the rings' directory,
     * its multicast groups' folders too. The fixture closes the memory its devices registered after this.
     */
    @Override
    public void close() {
        devices.forEach(Verbs.emulated()::remove);
        forgers.values().forEach(ShmPort::close);
        if (rings == null) {
            return;
        }
        try (var files = Files.walk(rings)) {
            for (Path f : files.sorted(Comparator.reverseOrder()).toList()) { // a folder after what is in it
                Files.deleteIfExists(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the rings' directory " + rings, e);
        }
    }
}
