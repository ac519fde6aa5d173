package io.jrxe.benchmarks;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicContext;
import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A 64 KiB READ and a 64 KiB WRITE between two NICs on the simulated network (one thread, virtual time, no loss),
 * from the post to the requester's completion: 64 packets of 1 KiB each way's data and the ACKs or requests the other
 * way, through both engines. With {@code cc=none} the NICs run the default part (the device window, and the hooks
 * every part is called through: CNP and ECN handling, round-trip timing, the flow's calls per packet); with
 * {@code cc=unlimited} a part that allows everything and does nothing. The difference is what congestion control
 * costs a program that does not use it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class CongestionHooksBenchmark {
    private static final int BYTES = 64 << 10;
    private static final long DEADLINE_NANOS = 1_000_000_000L;

    @Param({"none", "unlimited"})
    public String cc;

    private SimulatedNetwork network;
    private VirtualTime time;
    private Arena arena;
    private EmulatedDevice[] devices;
    private Cq sendCq;
    private Qp requester;
    private final WorkCompletion[] wcs = {new WorkCompletion()};
    private final SendWr read = new SendWr(1);
    private final SendWr write = new SendWr(1);
    /** Made once, so that waiting for a completion allocates nothing. */
    private final BooleanSupplier completed = () -> sendCq.poll(wcs) > 0;

    @Setup(Level.Trial)
    public void connect() throws Exception {
        network = new SimulatedNetwork(1);
        time = network.time();
        arena = Arena.ofShared();
        CongestionControl.Factory part = cc.equals("unlimited") ? (t, counters) -> Unlimited.INSTANCE
                : CongestionControlChoice.named(cc);
        devices = new EmulatedDevice[] {device("10.0.0.1", part), device("10.0.0.2", part)};
        Context[] ctx = {devices[0].open(), devices[1].open()};
        Pd[] pd = {ctx[0].allocPd(), ctx[1].allocPd()};
        Cq[] cq = {ctx[0].createCq(64, null), ctx[1].createCq(64, null)};
        sendCq = cq[0];
        QpCapabilities caps = new QpCapabilities(16, 16, 1, 1, 0);
        Qp[] qp = {pd[0].createQp(new QpInitAttributes(QpType.RC, cq[0], cq[0], null, caps, false)),
                pd[1].createQp(new QpInitAttributes(QpType.RC, cq[1], cq[1], null, caps, false))};
        int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
        MemorySegment local = arena.allocate(BYTES, 4096);
        MemorySegment remote = arena.allocate(BYTES, 4096);
        Mr localMr = pd[0].regMr(local, access);
        Mr remoteMr = pd[1].regMr(remote, access);
        for (int i = 0; i < 2; i++) {
            toRts(qp[i], devices[1 - i], qp[1 - i].qpNum());
        }
        requester = qp[0];
        for (SendWr wr : new SendWr[] {read, write}) {
            wr.flags = SendWr.SIGNALED;
            wr.sgl.add(local.address(), BYTES, localMr.lkey());
            wr.remoteAddr = remote.address();
            wr.rkey = remoteMr.rkey();
        }
        read.opcode = WrOpcode.RDMA_READ;
        write.opcode = WrOpcode.RDMA_WRITE;
    }

    @TearDown(Level.Trial)
    public void close() {
        for (EmulatedDevice d : devices) {
            Verbs.emulated().remove(d);
        }
        arena.close();
    }

    @Benchmark
    public int read64KiB() throws VerbsException {
        return transfer(read);
    }

    @Benchmark
    public int write64KiB() throws VerbsException {
        return transfer(write);
    }

    private int transfer(SendWr wr) throws VerbsException {
        wr.wrId++;
        requester.postSend(wr);
        if (!time.runUntil(completed, DEADLINE_NANOS) || wcs[0].status() != WcStatus.SUCCESS) {
            throw new IllegalStateException(wr.opcode + " did not complete: " + wcs[0] + "; " + network);
        }
        return wcs[0].byteLen();
    }

    private EmulatedDevice device(String address, CongestionControl.Factory part) throws Exception {
        DeviceConfig config = DeviceConfig.of("cc-bench-" + cc + "-" + address, InetAddress.getByName(address))
                .withInterfaceMtu(4200);
        return Verbs.emulated().create(new NicContext(config).transport(SimulatedTransport.attach(network, config))
                .congestionControl(part));
    }

    private static void toRts(Qp qp, EmulatedDevice peer, int peerQpn) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ));
        byte[] dgid = GidEntry.gidOf(peer.nic().resources().config().addresses().getFirst());
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(dgid, 1)).pathMtu(Mtu.MTU_1024)
                .destQpn(peerQpn).rqPsn(0x100).maxDestRdAtomic(1).minRnrTimer(1));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0x100).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    /** A part that lets every packet go and does nothing with any signal. */
    private static final class Unlimited implements CongestionControl, CongestionControl.Flow {
        static final Unlimited INSTANCE = new Unlimited();

        @Override
        public String name() {
            return "unlimited";
        }

        @Override
        public Flow attach(int qpn, Runnable wake) {
            return this;
        }

        @Override
        public boolean mayTransmit() {
            return true;
        }

        @Override
        public boolean mayRespond() {
            return true;
        }

        @Override
        public boolean nearLimit() {
            return false;
        }

        @Override
        public boolean refusesNext() {
            return false;
        }

        @Override
        public void acknowledged(int packets) {
        }

        @Override
        public void turnEnded() {
        }

        @Override
        public void inFlight(int packets) {
        }

        @Override
        public void congestionNotified() {
        }

        @Override
        public void congestionExperienced() {
        }

        @Override
        public void detach() {
        }
    }
}
