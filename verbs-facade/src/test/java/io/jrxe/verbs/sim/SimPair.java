package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.device.GidEntry;
import io.jrxe.rnic.device.Mtu;
import io.jrxe.rnic.memory.Access;
import io.jrxe.rnic.qp.AddressVector;
import io.jrxe.rnic.qp.QpAttributes;
import io.jrxe.rnic.qp.QpCapabilities;
import io.jrxe.rnic.qp.QpState;
import io.jrxe.rnic.qp.QpType;
import io.jrxe.rnic.queue.WorkCompletion;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.Verbs;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.emulated.EmulatedDevice;
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
 */
public final class SimPair implements AutoCloseable {
    private static final AtomicLong NAMES = new AtomicLong();

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
        final List<WorkCompletion> sendDone = new ArrayList<>();
        final List<WorkCompletion> recvDone = new ArrayList<>();
    }

    public SimPair(long seed, QpType type, Mtu mtu, long memoryBytes) throws Exception {
        this(seed, type, mtu, memoryBytes, 7, 7, 14);
    }

    public SimPair(long seed, QpType type, Mtu mtu, long memoryBytes, int retryCnt, int rnrRetry, int timeout)
            throws Exception {
        network = new SimulatedNetwork(seed);
        a = side("10.0.0.1", memoryBytes, type);
        b = side("10.0.0.2", memoryBytes, type);
        connect(a, b, type, mtu, retryCnt, rnrRetry, timeout);
        connect(b, a, type, mtu, retryCnt, rnrRetry, timeout);
    }

    private Side side(String address, long memoryBytes, QpType type) throws Exception {
        Side s = new Side();
        s.device = Verbs.emulated().createSimulated(
                DeviceConfig.of("sim" + NAMES.incrementAndGet(), InetAddress.getByName(address)).withInterfaceMtu(4200), network);
        s.ctx = s.device.open();
        s.pd = s.ctx.allocPd();
        s.sendCq = s.ctx.createCq(4096, null);
        s.recvCq = s.ctx.createCq(4096, null);
        s.qp = s.pd.createQp(new QpInitAttributes(type, s.sendCq, s.recvCq, null, new QpCapabilities(1024, 1024, 4, 4, 256), false));
        s.memory = arena.allocate(memoryBytes, 4096);
        s.mr = s.pd.regMr(s.memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
                | Access.MW_BIND);
        return s;
    }

    private static void connect(Side self, Side peer, QpType type, Mtu mtu, int retryCnt, int rnrRetry, int timeout)
            throws VerbsException {
        int access = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
        if (type == QpType.UD) {
            self.qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(0x11111111));
            self.qp.modify(new QpAttributes().state(QpState.RTR));
            self.qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0));
            return;
        }
        self.qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(type == QpType.UC
                ? Access.REMOTE_WRITE : access));
        byte[] dgid = GidEntry.gidOf(peer.device.rnic().config().addresses().getFirst());
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).av(AddressVector.to(dgid, 1)).pathMtu(mtu)
                .destQpn(peer.qp.qpNum()).rqPsn(0x100);
        if (type == QpType.RC) {
            rtr.maxDestRdAtomic(16).minRnrTimer(1);
        }
        self.qp.modify(rtr);
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(0x100);
        if (type == QpType.RC) {
            rts.timeout(timeout).retryCnt(retryCnt).rnrRetry(rnrRetry).maxRdAtomic(16);
        }
        self.qp.modify(rts);
    }

    /** Runs virtual time until both sides have at least this many completions, or fails after the virtual deadline. */
    public void awaitCompletions(int sendCompletions, int recvCompletions, long virtualNanos) {
        boolean ok = network.time().runUntil(() -> {
            drain(a);
            drain(b);
            return a.sendDone.size() + b.sendDone.size() >= sendCompletions
                    && a.recvDone.size() + b.recvDone.size() >= recvCompletions;
        }, virtualNanos);
        if (!ok) {
            throw new AssertionError("completions did not arrive: send " + (a.sendDone.size() + b.sendDone.size()) + "/"
                    + sendCompletions + ", recv " + (a.recvDone.size() + b.recvDone.size()) + "/" + recvCompletions
                    + " after " + network.time().nanoTime() + " ns virtual; " + network);
        }
    }

    /** Runs virtual time for a while (to let things settle), collecting completions. */
    public void run(long virtualNanos) {
        network.time().runFor(virtualNanos);
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

    public List<WorkCompletion> recvCompletions(Side s) {
        return s.recvDone;
    }

    @Override
    public void close() {
        Verbs.emulated().remove(a.device);
        Verbs.emulated().remove(b.device);
        arena.close();
    }
}
