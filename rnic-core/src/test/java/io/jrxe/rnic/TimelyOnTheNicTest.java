package io.jrxe.rnic;

import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.rnic.cc.DeviceWindow;
import io.jrxe.rnic.cc.Timely;
import io.jrxe.rnic.cc.TimelyParameters;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.engine.TraceEvent;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.transport.SimulatedTransport;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.PacketFilter;
import io.jrxe.wire.sim.SimulatedNetwork;
import io.jrxe.wire.sim.VirtualTime;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TIMELY on two NICs of a simulated network, in virtual time: the round trips the requester measures
 * reach the QP's rate (a long delay on the links drives it down, the links' own 5 µs lets it climb
 * back to the line rate), and a packet sent again gives no sample.
 */
class TimelyOnTheNicTest {
    private static final PeerAddress A = PeerAddress.of("10.9.0.1");
    private static final PeerAddress B = PeerAddress.of("10.9.0.2");
    private static final int MTU = 1024;
    private static final int MESSAGE = 16 * MTU;
    private static final long MICROS = 1_000;
    private static final long MILLIS = 1_000_000;

    private final SimulatedNetwork network = new SimulatedNetwork(11);
    private final VirtualTime time = network.time();
    private final Arena arena = Arena.ofShared();
    private final List<Nic> nics = new ArrayList<>();

    @AfterEach
    void close() {
        nics.forEach(Nic::close);
        arena.close();
    }

    /** One NIC's end: its QP, CQ and a registered buffer the peer may write. */
    private record End(Nic nic, QpHandle qp, CompletionQueue cq, MemorySegment memory, MptEntry mr) {
    }

    private End end(PeerAddress address, CongestionControl.Factory congestionControl) throws Exception {
        Nic nic = new NicContext(DeviceConfig.of("timely" + nics.size(), address.address()))
                .transport(SimulatedTransport.attach(network, address))
                .congestionControl(congestionControl)
                .open();
        nics.add(nic);
        NicResources r = nic.resources();
        ProtectionDomain pd = r.allocatePd();
        MemorySegment memory = arena.allocate(MESSAGE, MptEntry.PAGE_SIZE);
        MptEntry mr = r.memory().registerMr(pd, memory, memory.address(), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        CompletionQueue cq = r.createCq(64, null);
        QpHandle qp = nic.createQp(pd, QpType.RC, cq, cq, null, new QpCapabilities(32, 4, 1, 1, 0), false);
        return new End(nic, qp, cq, memory, mr);
    }

    /** Both QPs to RTS, each connected to the other's, requests starting at PSN 0. */
    private static void connect(End a, PeerAddress aAddress, End b, PeerAddress bAddress) throws Exception {
        toRts(a, bAddress, b.qp().qp().qpn());
        toRts(b, aAddress, a.qp().qp().qpn());
    }

    private static void toRts(End e, PeerAddress peer, int peerQpn) throws Exception {
        e.nic().modifyQp(e.qp(), new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE));
        e.nic().modifyQp(e.qp(), new QpAttributes().state(QpState.RTR).av(AddressVector.to(peer.gid(), 1))
                .pathMtu(Mtu.MTU_1024).destQpn(peerQpn).rqPsn(0).maxDestRdAtomic(1).minRnrTimer(12));
        e.nic().modifyQp(e.qp(), new QpAttributes().state(QpState.RTS).sqPsn(0).timeout(14).retryCnt(7)
                .rnrRetry(7).maxRdAtomic(1));
    }

    private static SendWr write(End from, End to, long wrId, int length) {
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.opcode = WrOpcode.RDMA_WRITE;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(from.memory().address(), length, from.mr().key());
        w.remoteAddr = to.memory().address();
        w.rkey = to.mr().key();
        return w;
    }

    /** Keeps four WRITEs outstanding from {@code from} for {@code nanos} of virtual time; each completes well. */
    private static void writeFor(VirtualTime time, End from, End to, long nanos) throws Exception {
        long end = time.nanoTime() + nanos;
        WorkCompletion[] wc = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        int outstanding = 0;
        long wrId = 0;
        while (time.nanoTime() < end) {
            while (outstanding < 4) {
                from.qp().postSend(write(from, to, wrId++, MESSAGE));
                outstanding++;
            }
            int n = from.cq().poll(wc, wc.length);
            for (int i = 0; i < n; i++) {
                assertThat(wc[i].status()).isEqualTo(WcStatus.SUCCESS);
            }
            outstanding -= n;
            if (n == 0 && !time.step()) {
                throw new AssertionError("nothing left to run with " + outstanding + " WRITEs outstanding");
            }
        }
    }

    @Test
    void aLongDelayDrivesTheRateDownAndTheLinksOwnLetsItBackToTheLineRate() throws Exception {
        // delta 200 Mbit/s, so that climbing back takes a few ms of virtual time rather than a hundred
        TimelyParameters parameters = TimelyParameters.DEFAULTS.withIncrease(200_000_000L, 5);
        End a = end(A, Timely.of(parameters));
        End b = end(B, Timely.of(parameters));
        connect(a, A, b, B);
        List<String> steps = new ArrayList<>();
        long[] lastRate = {parameters.lineRateBitsPerSecond()};
        a.nic().trace((event, qpn, wrId, psn, opcode, value) -> {
            if (event == TraceEvent.RATE_CHANGED) {
                steps.add(event.opcodeName(opcode));
                lastRate[0] = value;
            }
        });

        network.faults(LinkFaults.NONE.withDelay(400 * MICROS)); // an 800 µs round trip: above T_high
        writeFor(time, a, b, 10 * MILLIS);
        CounterRegistry counters = a.nic().counters();
        long slowSamples = counters.get("jrxe_cc_rtt_samples");
        assertThat(slowSamples).as("about one sample per round trip").isBetween(5L, 15L);
        assertThat(steps).as("each sample above T_high cut the rate").isNotEmpty().containsOnly("RTT_HIGH");
        assertThat(lastRate[0]).isLessThan(parameters.lineRateBitsPerSecond() / 10);
        assertThat(counters.get("jrxe_cc_rate_limited_qps")).isEqualTo(1);
        assertThat(counters.get("jrxe_cc_paced")).as("the pacer held the QP back").isPositive();

        network.faults(LinkFaults.NONE); // 5 µs each way: below T_low
        steps.clear();
        writeFor(time, a, b, 10 * MILLIS);
        assertThat(counters.get("jrxe_cc_rtt_samples")).isGreaterThan(slowSamples + 100);
        assertThat(steps).contains("RTT_LOW");
        assertThat(lastRate[0]).isEqualTo(parameters.lineRateBitsPerSecond());
        assertThat(counters.get("jrxe_cc_rate_limited_qps")).isZero();
        assertThat(counters.get("jrxe_cc_cnp_ignored")).isZero();
    }

    /** The device window with the round trips it hears written down. */
    private static final class RecordedRoundTrips implements CongestionControl {
        final List<Long> samples = new ArrayList<>();
        private final DeviceWindow window;

        RecordedRoundTrips(NicTime time, CounterRegistry counters) {
            window = new DeviceWindow(DeviceWindow.DEFAULT_PACKETS, time, counters);
        }

        @Override
        public String name() {
            return "recorded";
        }

        @Override
        public Flow attach(int qpn, Runnable wake) {
            Flow inner = window.attach(qpn, wake);
            return new Flow() {
                @Override public boolean mayTransmit() { return inner.mayTransmit(); }
                @Override public boolean mayRespond() { return inner.mayRespond(); }
                @Override public boolean nearLimit() { return inner.nearLimit(); }
                @Override public boolean refusesNext() { return inner.refusesNext(); }
                @Override public void transmitted(int bytes) { inner.transmitted(bytes); }
                @Override public void acknowledged(int packets) { inner.acknowledged(packets); }
                @Override public void roundTripMeasured(long nanos) { samples.add(nanos); }
                @Override public void turnEnded() { inner.turnEnded(); }
                @Override public void inFlight(int packets) { inner.inFlight(packets); }
                @Override public void congestionNotified() { inner.congestionNotified(); }
                @Override public void congestionExperienced() { inner.congestionExperienced(); }
                @Override public void detach() { inner.detach(); }
            };
        }
    }

    @Test
    void aRoundTripIsMeasuredPerAnsweredRequestButNotAcrossAResend() throws Exception {
        RecordedRoundTrips[] parts = new RecordedRoundTrips[1];
        End a = end(A, (clock, counters) -> parts[0] = new RecordedRoundTrips(clock, counters));
        End b = end(B, CongestionControlChoice.named("none"));
        connect(a, A, b, B);
        List<Long> samples = parts[0].samples;
        WorkCompletion[] wc = {new WorkCompletion()};

        a.qp().postSend(write(a, b, 1, MTU));
        assertThat(time.runUntil(() -> a.cq().poll(wc, 1) == 1, MILLIS)).isTrue();
        assertThat(samples).as("the link's 5 µs each way, nothing else in virtual time").containsExactly(10 * MICROS);

        int[] fromA = {0}; // A's packets seen from here: the first is lost
        network.filter((from, to, roce) -> from.equals(A) && fromA[0]++ == 0
                ? PacketFilter.Verdict.DROP : PacketFilter.Verdict.PASS);
        a.qp().postSend(write(a, b, 2, MTU));
        assertThat(time.runUntil(() -> a.cq().poll(wc, 1) == 1, 1_000 * MILLIS)).isTrue();
        assertThat(wc[0].status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(fromA[0]).as("the WRITE went again after its ACK timeout, and only then").isEqualTo(2);
        assertThat(samples).as("the resend's ACK could be the first copy's: no sample (Karn)").hasSize(1);

        network.filter(null);
        a.qp().postSend(write(a, b, 3, MTU));
        assertThat(time.runUntil(() -> a.cq().poll(wc, 1) == 1, MILLIS)).isTrue();
        assertThat(samples).as("new packets are timed again").containsExactly(10 * MICROS, 10 * MICROS);
    }
}
