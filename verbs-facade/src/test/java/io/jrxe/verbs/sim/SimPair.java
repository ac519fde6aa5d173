package io.jrxe.verbs.sim;

import io.jrxe.rnic.AddressHandle;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.Nic;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.sim.SimulatedNetwork;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Two emulated NICs on a simulated network with one connected QP pair and a registered buffer
 * on each side: the fixture of the data-path tests. Everything runs on the test's thread in
 * virtual time.
 * <p>
 * With {@code -Djrxe.sim.wire=shm} the two NICs are on the shared-memory wire instead, in real time
 * ({@link FixtureWire}): the waits poll both sides' CQs, which runs their NICs.
 */
public final class SimPair implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

    private final FixtureWire wire;
    public final SimulatedNetwork network;
    public final Side a;
    public final Side b;
    private final Arena arena = Arena.ofShared();

    /** One NIC, its QP, CQs and memory. */
    public static final class Side {
        public EmulatedDevice device;
        public Context ctx;
        public Pd pd;
        public Cq sendCq;
        public Cq recvCq;
        public Qp qp;
        public MemorySegment memory;
        public Mr mr;
        public Srq srq;
        /** The completion channel of the receive CQ, when the config asked for one. */
        public CompChannel recvChannel;
        public PeerAddress address;
        final List<WorkCompletion> sendDone = new ArrayList<>();
        final List<WorkCompletion> recvDone = new ArrayList<>();
    }

    public SimPair(long seed, QpType type, Mtu mtu, long memoryBytes) throws Exception {
        this(seed, type, mtu, memoryBytes, 7, 7, 14);
    }

    public SimPair(long seed, QpType type, Mtu mtu, long memoryBytes, int retryCnt, int rnrRetry, int timeout)
            throws Exception {
        this(seed, new Config(type).mtu(mtu).memory(memoryBytes).retryCnt(retryCnt).rnrRetry(rnrRetry).timeout(timeout));
    }

    public SimPair(long seed, Config config) throws Exception {
        this.config = config;
        wire = new FixtureWire(seed);
        network = wire.network;
        a = side("10.0.0.1", config, false);
        b = side("10.0.0.2", config, config.srqOnB);
        connect(a, b, config);
        connect(b, a, config);
    }

    /** How a pair is built: the defaults are the ones the first tests used. */
    public static final class Config {
        final QpType type;
        Mtu mtu = Mtu.MTU_1024;
        long memoryBytes = 1 << 20;
        int retryCnt = 7;
        int rnrRetry = 7;
        int timeout = 14;
        int minRnrTimer = 1;
        boolean sqSigAll;
        boolean srqOnB;
        boolean recvChannels;
        int srqMaxWr = 64;
        QpCapabilities caps = new QpCapabilities(1024, 1024, 4, 4, 256);
        int mrAccess = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
                | Access.MW_BIND | Access.FLUSH_GLOBAL;
        int qpAccess = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC | Access.FLUSH_GLOBAL;
        int qkey = 0x11111111;
        int psn = 0x100;
        int maxRdAtomic = 16;
        int maxDestRdAtomic = 16;
        java.util.function.UnaryOperator<DeviceConfig> device = d -> d;

        public Config(QpType type) {
            this.type = type;
        }

        public Config mtu(Mtu v) { mtu = v; return this; }
        public Config qpAccess(int v) { qpAccess = v; return this; }
        public Config memory(long v) { memoryBytes = v; return this; }
        public Config retryCnt(int v) { retryCnt = v; return this; }
        public Config rnrRetry(int v) { rnrRetry = v; return this; }
        public Config timeout(int v) { timeout = v; return this; }
        public Config minRnrTimer(int v) { minRnrTimer = v; return this; }
        public Config sqSigAll(boolean v) { sqSigAll = v; return this; }
        /** B's QP takes its receives from an SRQ (B.srq) instead of its own receive queue. */
        public Config srqOnB(int maxWr) { srqOnB = true; srqMaxWr = maxWr; return this; }
        public Config caps(QpCapabilities v) { caps = v; return this; }
        /** Each side's receive CQ gets a completion channel (Side.recvChannel). */
        public Config recvChannels() { recvChannels = true; return this; }
        public Config mrAccess(int v) { mrAccess = v; return this; }
        public Config qkey(int v) { qkey = v; return this; }
        public Config maxRdAtomic(int v) { maxRdAtomic = v; return this; }
        public Config maxDestRdAtomic(int v) { maxDestRdAtomic = v; return this; }
        /** Changes both devices' configuration (ODP settings, ...) from the fixture's. */
        public Config device(java.util.function.UnaryOperator<DeviceConfig> v) { device = v; return this; }
        /** The first PSN of both directions (sq_psn of one side = rq_psn of the other). */
        public Config psn(int v) { psn = v; return this; }
    }

    public final Config config;

    private Side side(String address, Config c, boolean withSrq) throws Exception {
        Side s = new Side();
        DeviceConfig device = c.device.apply(
                DeviceConfig.of("sim" + NAMES.incrementAndGet(), InetAddress.getByName(address)).withInterfaceMtu(4200));
        s.device = wire.device(device);
        s.ctx = s.device.open();
        AsyncEvent up = s.ctx.pollAsyncEvent();
        if (up == null || up.type() != AsyncEventType.PORT_ACTIVE) {
            throw new AssertionError("a new device reports PORT_ACTIVE first, not " + up);
        }
        s.pd = s.ctx.allocPd();
        s.sendCq = s.ctx.createCq(4096, null);
        if (c.recvChannels) {
            s.recvChannel = s.ctx.createCompChannel();
        }
        s.recvCq = s.ctx.createCq(4096, s.recvChannel);
        if (withSrq) {
            s.srq = s.pd.createSrq(c.srqMaxWr, 4);
        }
        s.qp = s.pd.createQp(new QpInitAttributes(c.type, s.sendCq, s.recvCq, s.srq, c.caps, c.sqSigAll));
        s.memory = arena.allocate(c.memoryBytes, 4096);
        s.mr = s.pd.regMr(s.memory, c.mrAccess);
        s.address = PeerAddress.of(InetAddress.getByName(address));
        return s;
    }

    private static void connect(Side self, Side peer, Config c) throws VerbsException {
        if (c.type == QpType.UD) {
            self.qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(c.qkey));
            self.qp.modify(new QpAttributes().state(QpState.RTR));
            self.qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(c.psn));
            return;
        }
        self.qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(c.type == QpType.UC
                ? Access.REMOTE_WRITE : c.qpAccess));
        byte[] dgid = GidEntry.gidOf(peer.device.nic().resources().config().addresses().getFirst());
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).av(AddressVector.to(dgid, 1)).pathMtu(c.mtu)
                .destQpn(peer.qp.qpNum()).rqPsn(c.psn);
        if (c.type == QpType.RC) {
            rtr.maxDestRdAtomic(c.maxDestRdAtomic).minRnrTimer(c.minRnrTimer);
        }
        self.qp.modify(rtr);
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(c.psn);
        if (c.type == QpType.RC) {
            rts.timeout(FixtureWire.ackTimeout(c.timeout)).retryCnt(c.retryCnt).rnrRetry(c.rnrRetry).maxRdAtomic(c.maxRdAtomic);
        }
        self.qp.modify(rts);
    }

    /**
     * Another connected QP pair between the same two devices, sharing the sides' PDs, CQs, memory
     * and MRs (and B's SRQ when the config has one). Completions land in {@link #a} and {@link #b}'s
     * lists, told apart by their qp_num.
     */
    public Side[] anotherQpPair() throws Exception {
        Side a2 = shareDevice(a);
        Side b2 = shareDevice(b);
        a2.qp = a.pd.createQp(new QpInitAttributes(config.type, a.sendCq, a.recvCq, a.srq, config.caps, config.sqSigAll));
        b2.qp = b.pd.createQp(new QpInitAttributes(config.type, b.sendCq, b.recvCq, b.srq, config.caps, config.sqSigAll));
        connect(a2, b2, config);
        connect(b2, a2, config);
        return new Side[] {a2, b2};
    }

    /** Takes two connected QPs through RESET and connects them again, from the config's first PSN. */
    public void reconnect(Side x, Side y) throws VerbsException {
        x.qp.modify(new QpAttributes().state(QpState.RESET));
        y.qp.modify(new QpAttributes().state(QpState.RESET));
        connect(x, y, config);
        connect(y, x, config);
    }

    private static Side shareDevice(Side s) {
        Side t = new Side();
        t.device = s.device;
        t.ctx = s.ctx;
        t.pd = s.pd;
        t.sendCq = s.sendCq;
        t.recvCq = s.recvCq;
        t.recvChannel = s.recvChannel;
        t.srq = s.srq;
        t.memory = s.memory;
        t.mr = s.mr;
        t.address = s.address;
        return t;
    }

    /**
     * Whether every packet either side sent has arrived: the simulated network has nothing in flight, or on the
     * shared-memory wire each side received as many packets as the other sent.
     */
    public boolean delivered() {
        if (!wire.shm()) {
            return network.time().idle();
        }
        return counter(a, Counter.SENT_PKTS) == counter(b, Counter.RCVD_PKTS)
                && counter(b, Counter.SENT_PKTS) == counter(a, Counter.RCVD_PKTS);
    }

    /** A counter of a side's device, by rxe's (or jrxe's) name. */
    public long counter(Side s, Counter c) {
        return s.device.nic().resources().counters().get(c);
    }

    /**
     * The handle a UD send work request names its address handle by. The Ah facade does not
     * expose it (a gap of the verbs API: SendWr.ahHandle cannot be filled from an Ah), so the
     * fixture finds the device's AH whose address vector is the very object the facade holds.
     */
    public static int ahHandle(Side s, Ah ah) {
        for (int h = 0; h < 1 << 16; h++) {
            AddressHandle found = s.device.nic().resources().ah(h);
            if (found != null && found.av() == ah.av()) {
                return h;
            }
        }
        throw new IllegalStateException("no AH of " + s.device + " holds " + ah.av());
    }

    /** Installs the test's packet filter on the pair's wire ({@link FixtureWire#filter}). */
    void filter(PacketFilter f) {
        wire.filter(f, a.device, b.device);
    }

    /** The pair's clock: the simulated network's virtual time, or on the shared-memory wire the JVM's. */
    long nanoTime() {
        return wire.nanoTime();
    }

    /** Makes {@code third} an address packets can be {@link #inject}ed from ({@link FixtureWire#attach}). */
    void attach(PeerAddress third) {
        wire.attach(third);
    }

    /** Puts a packet made by hand on the wire as if {@code from} had sent it ({@link FixtureWire#inject}). */
    void inject(PeerAddress from, PeerAddress to, byte[] roce, int srcPort) {
        wire.inject(from, to, roce, srcPort);
    }

    /** The device's NIC, for trace listeners and its port. */
    public static Nic nic(Side s) {
        return s.device.nic();
    }

    /** Runs virtual time until both sides have at least this many completions, or fails after the virtual deadline. */
    public void awaitCompletions(int sendCompletions, int recvCompletions, long virtualNanos) {
        boolean ok = runUntil(() -> a.sendDone.size() + b.sendDone.size() >= sendCompletions
                && a.recvDone.size() + b.recvDone.size() >= recvCompletions, virtualNanos);
        if (!ok) {
            throw new AssertionError("completions did not arrive: send " + (a.sendDone.size() + b.sendDone.size()) + "/"
                    + sendCompletions + ", recv " + (a.recvDone.size() + b.recvDone.size()) + "/" + recvCompletions
                    + " after " + wire.waited() + "; " + network);
        }
    }

    /** Runs virtual time until one side has at least this many send and receive completions. */
    public void awaitOn(Side s, int sendCompletions, int recvCompletions, long virtualNanos) {
        boolean ok = runUntil(() -> s.sendDone.size() >= sendCompletions && s.recvDone.size() >= recvCompletions,
                virtualNanos);
        if (!ok) {
            throw new AssertionError("completions did not arrive on " + s.device + ": send " + s.sendDone.size() + "/"
                    + sendCompletions + " " + s.sendDone + ", recv " + s.recvDone.size() + "/" + recvCompletions + " "
                    + s.recvDone + " after " + wire.waited() + "; " + network);
        }
    }

    /** Runs virtual time until the condition holds (completions are collected on the way); false after the deadline. */
    public boolean runUntil(java.util.function.BooleanSupplier done, long virtualNanos) {
        return wire.runUntil(this::drainBoth, done, virtualNanos);
    }

    /** Runs virtual time for a while (to let things settle), collecting completions. */
    public void run(long virtualNanos) {
        wire.runFor(this::drainBoth, virtualNanos);
    }

    /**
     * Runs virtual time for a while as {@link #run(long)} does, after which the test asserts that {@code seen} came
     * about (and perhaps that nothing else did). On the shared-memory wire, in real time, the wait is first for
     * {@code seen} (up to the shared-memory wait), then for {@code virtualNanos}: a packet's way there has no bound.
     */
    public void run(long virtualNanos, java.util.function.BooleanSupplier seen) {
        wire.awaitOnShm(this::drainBoth, seen);
        run(virtualNanos);
    }

    /** Collects both sides' completions; on the shared-memory wire that runs their NICs too. */
    private void drainBoth() {
        drain(a);
        drain(b);
    }

    private static void drain(Side s) {
        poll(s.sendCq, s.sendDone);
        poll(s.recvCq, s.recvDone);
    }

    private static void poll(Cq cq, List<WorkCompletion> into) {
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        int n;
        while ((n = cq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                into.add(wcs[i]);
                wcs[i] = new WorkCompletion();
            }
        }
    }

    public List<WorkCompletion> sendCompletions(Side s) {
        return s.sendDone;
    }

    /** The one send completion {@code s} has collected, taken out (a failed assertion when there are more or none). */
    public WorkCompletion onlyCompletion(Side s) {
        org.assertj.core.api.Assertions.assertThat(s.sendDone).hasSize(1);
        return s.sendDone.removeFirst();
    }

    /** The on-demand page faults {@code s}'s device has counted. */
    public long odpFaults(Side s) {
        return counter(s, Counter.ODP_PAGE_FAULTS);
    }

    public List<WorkCompletion> recvCompletions(Side s) {
        return s.recvDone;
    }

    @Override
    public void close() {
        wire.close();
        arena.close();
    }
}
