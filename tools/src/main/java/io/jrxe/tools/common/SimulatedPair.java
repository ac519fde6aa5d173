package io.jrxe.tools.common;

import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpPeer;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.DeviceAttributes;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.emulated.EmulatedExtension;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.capture.CaptureTap;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.function.BooleanSupplier;

/**
 * Two jrxe NICs in this process on a simulated network (jrxe0 at 10.0.0.1, jrxe1 at 10.0.0.2), each with a PD, a
 * CQ, an RC QP connected to the other's and a registered, page-aligned buffer. Everything runs on the caller's
 * thread in virtual time, so a run is the same every time and an RNR wait or a retry timeout costs no real time:
 * what the teaching commands (trace, mistakes) need to show one work request at a time.
 */
public final class SimulatedPair implements AutoCloseable {
    /** The QPs' PSNs: jrxe0's requests start at 0x1000, jrxe1's at 0x2000. */
    public static final int PSN_A = 0x1000;
    public static final int PSN_B = 0x2000;
    /** Virtual time a step may take before it is given up (RNR waits and retries included). */
    public static final long STEP_LIMIT_NANOS = 60_000_000_000L;
    private static final java.util.concurrent.atomic.AtomicLong INSTANCES = new java.util.concurrent.atomic.AtomicLong();

    /**
     * How a pair is made.
     *
     * @param interfaceMtu the NICs' interface MTU (4200 gives a path MTU of 4096)
     * @param bufferBytes  each NIC's registered buffer
     * @param cqEntries    each NIC's CQ
     * @param caps         each QP's capabilities
     * @param rnrRetry     the requester's RNR retry count (7: for ever)
     * @param minRnrTimer  the responder's RNR timer code
     * @param retryCnt     the requester's retry count
     * @param timeout      the local ACK timeout code (4.096 us x 2^timeout)
     * @param attributes   both devices' attributes
     * @param mttEntries   the size of both devices' memory translation tables, in entries
     * @param onDemand     both buffers are registered ON_DEMAND: their pages are faulted in at first use (docs/odp.md)
     */
    public record Settings(int interfaceMtu, long bufferBytes, int cqEntries, QpCapabilities caps, int rnrRetry,
                           int minRnrTimer, int retryCnt, int timeout, DeviceAttributes attributes, long mttEntries,
                           boolean onDemand) {
        public static Settings defaults() {
            return new Settings(4200, 64 * 1024, 16, new QpCapabilities(16, 16, 2, 2, 0), 7, 1, 7, 14,
                    DeviceAttributes.rxeDefaults(), DeviceConfig.DEFAULT_MTT_ENTRIES, false);
        }

        public Settings onDemand(boolean v) {
            return new Settings(interfaceMtu, bufferBytes, cqEntries, caps, rnrRetry, minRnrTimer, retryCnt, timeout,
                    attributes, mttEntries, v);
        }

        public Settings bufferBytes(long v) {
            return new Settings(interfaceMtu, v, cqEntries, caps, rnrRetry, minRnrTimer, retryCnt, timeout, attributes,
                    mttEntries, onDemand);
        }

        public Settings cqEntries(int v) {
            return new Settings(interfaceMtu, bufferBytes, v, caps, rnrRetry, minRnrTimer, retryCnt, timeout, attributes,
                    mttEntries, onDemand);
        }

        public Settings rnr(int retry, int timer) {
            return new Settings(interfaceMtu, bufferBytes, cqEntries, caps, retry, timer, retryCnt, timeout, attributes,
                    mttEntries, onDemand);
        }

        public Settings attributes(DeviceAttributes v) {
            return new Settings(interfaceMtu, bufferBytes, cqEntries, caps, rnrRetry, minRnrTimer, retryCnt, timeout, v,
                    mttEntries, onDemand);
        }

        public Settings mttEntries(long v) {
            return new Settings(interfaceMtu, bufferBytes, cqEntries, caps, rnrRetry, minRnrTimer, retryCnt, timeout,
                    attributes, v, onDemand);
        }
    }

    /** One NIC and what the pair made on it. */
    public static final class Nic {
        public final String name;
        public final EmulatedDevice device;
        /** What only a jrxe NIC can do (its MTT walk, its vendor_err's meanings, ...), of this NIC. */
        public final EmulatedExtension jrxe;
        public final Context ctx;
        public final Pd pd;
        public final Cq cq;
        public final Qp qp;
        public final MemorySegment memory;
        public final Mr mr;

        private Nic(String name, String address, SimulatedNetwork network, Arena arena, Settings s)
                throws VerbsException, UnknownHostException {
            this.name = name;
            // The device list is the JVM's: another command in it (a test's) may have a jrxe0 of its own.
            String unique = name + "-sim" + INSTANCES.incrementAndGet();
            device = Verbs.emulated().createSimulated(DeviceConfig.of(unique, InetAddress.getByName(address))
                    .withInterfaceMtu(s.interfaceMtu()).withAttributes(s.attributes()).withMttEntries(s.mttEntries()), network);
            jrxe = EmulatedExtension.of(device).orElseThrow();
            try {
                ctx = device.open();
                pd = ctx.allocPd();
                cq = ctx.createCq(s.cqEntries(), null);
                qp = pd.createQp(new QpInitAttributes(QpType.RC, cq, cq, null, s.caps(), false));
                memory = arena.allocate(s.bufferBytes(), 4096);
                mr = pd.regMr(memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
                        | (s.onDemand() ? Access.ON_DEMAND : 0));
            } catch (VerbsException | RuntimeException e) {
                Verbs.emulated().remove(device);
                throw e;
            }
        }

        /** The address of the byte at {@code offset} of the buffer (the MR's iova: registered at its address). */
        public long at(long offset) {
            return memory.address() + offset;
        }
    }

    public final SimulatedNetwork network;
    public final VirtualTime time;
    public final Nic a;
    public final Nic b;
    private final Arena arena = Arena.ofShared();
    private final WorkCompletion[] one = {new WorkCompletion()};
    /** Where each NIC's packets are captured besides its tap, or null. */
    private PacketTap captureOfA;
    private PacketTap captureOfB;

    private SimulatedPair(Settings s) throws VerbsException, UnknownHostException {
        network = new SimulatedNetwork(1);
        time = network.time();
        Nic made = null;
        try {
            made = new Nic("jrxe0", "10.0.0.1", network, arena, s);
            a = made;
            b = new Nic("jrxe1", "10.0.0.2", network, arena, s);
        } catch (VerbsException | RuntimeException e) {
            if (made != null) {
                Verbs.emulated().remove(made.device);
            }
            arena.close();
            throw e;
        }
        try {
            connect(a, b, PSN_A, PSN_B, s);
            connect(b, a, PSN_B, PSN_A, s);
        } catch (VerbsException | RuntimeException e) {
            close();
            throw e;
        }
    }

    public static SimulatedPair open(Settings s) throws VerbsException {
        try {
            return new SimulatedPair(s);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("a literal address did not parse", e);
        }
    }

    /** Memory of the pair's arena (freed when the pair closes, after the devices). */
    public Arena arena() {
        return arena;
    }

    private static void connect(Nic me, Nic peer, int myPsn, int peerPsn, Settings s) throws VerbsException {
        QpConnect.to(new QpPeer(peer.qp.qpNum(), peerPsn, peer.ctx.queryGid(1, 1).gid())).localPsn(myPsn)
                .pathMtu(me.ctx.queryPort(1).activeMtu()).minRnrTimer(s.minRnrTimer()).timeout(s.timeout())
                .retryCount(s.retryCnt()).rnrRetry(s.rnrRetry()).apply(me.qp);
    }

    /**
     * From now on every packet either NIC sends or receives also goes to {@code capture} (each NIC its own interface),
     * whatever tap a command sets with {@link #tap}.
     */
    public void captureTo(CaptureTap capture) {
        captureOfA = capture.forPort(a.name);
        captureOfB = capture.forPort(b.name);
        tap(a, null);
        tap(b, null);
    }

    /** Sets {@code nic}'s port tap to {@code tap} (null: none), beside the capture when there is one. */
    public void tap(Nic nic, PacketTap tap) {
        PacketTap capture = nic == a ? captureOfA : captureOfB;
        nic.device.nic().port().tap(capture == null ? tap : tap == null ? capture : PacketTap.both(capture, tap));
    }

    /** Runs the network and the NICs until {@code done}, or until nothing is left to happen; true when done. */
    public boolean runUntil(BooleanSupplier done) {
        return time.runUntil(done, STEP_LIMIT_NANOS);
    }

    /** Runs until nothing is left to happen (or the step's limit of virtual time passes). */
    public void settle() {
        time.runUntil(() -> false, STEP_LIMIT_NANOS);
    }

    /**
     * Runs until {@code nic}'s CQ has a completion and polls it (a copy), or null when none comes while anything is
     * left to happen.
     */
    public WorkCompletion pollOne(Nic nic) {
        WorkCompletion[] found = new WorkCompletion[1];
        runUntil(() -> {
            if (nic.cq.poll(one) == 1) {
                found[0] = new WorkCompletion(one[0]);
                return true;
            }
            return false;
        });
        return found[0];
    }

    /** What polling {@code nic}'s CQ finds now, without running anything. */
    public WorkCompletion pollNow(Nic nic) {
        return nic.cq.poll(one) == 1 ? new WorkCompletion(one[0]) : null;
    }


    @Override
    public void close() {
        Verbs.emulated().remove(a.device);
        Verbs.emulated().remove(b.device);
        arena.close();
    }
}
