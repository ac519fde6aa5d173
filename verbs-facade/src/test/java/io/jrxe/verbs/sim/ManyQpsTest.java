package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.sim.LinkFaults;
import io.jrxe.wire.sim.SimulatedNetwork;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many RC QPs writing at once, as write-bw -q N does, on a network that loses nothing: every QP's writes complete
 * and nothing is sent twice. A QP that the device's in-flight cap holds back must not be left with packets in
 * flight that no ACK will answer until its ACK timer fires.
 */
class ManyQpsTest {
    private static final int WRITES = 20;
    private static final int SIZE = 4096;

    @ParameterizedTest
    @ValueSource(ints = {100, 400})
    void everyQpsWritesCompleteWithoutARetry(int qps) throws Exception {
        SimulatedNetwork network = new SimulatedNetwork(qps);
        run(network, qps, true);
    }

    /**
     * A path with a round trip of milliseconds, as a busy or slow peer makes one: the window holds QPs back, and a
     * QP that stops at a message's end because the window is taken must have asked for an ACK with that message's
     * last packet, else its packets hold room in the window until its ACK timer fires (a stall of every QP once
     * the window is full of them).
     */
    @ParameterizedTest
    @ValueSource(longs = {200_000L, 2_000_000L, 20_000_000L})
    void aSlowPathHoldsQpsBackWithoutARetry(long oneWayNanos) throws Exception {
        SimulatedNetwork network = new SimulatedNetwork(oneWayNanos);
        network.faults(PeerAddress.of("10.5.0.2"), PeerAddress.of("10.5.0.1"), LinkFaults.NONE.withDelay(oneWayNanos));
        run(network, 100, true);
    }

    /**
     * ACKs slower than the ACK timeout, as when the peer's receive queue holds more than the timeout's worth of
     * packets: every QP times out and goes back, and the ACKs for what it sent before arrive while it sends again
     * (the device's in-flight cap paces the resends). Those ACKs are progress; dropped as answers to PSNs not
     * sent, every QP would retry until retry_cnt ran out.
     */
    @ParameterizedTest
    @ValueSource(ints = {100, 400})
    void acksLaterThanTheTimeoutStillCompleteEveryWrite(int qps) throws Exception {
        SimulatedNetwork network = new SimulatedNetwork(qps + 1);
        network.faults(PeerAddress.of("10.5.0.2"),
                PeerAddress.of("10.5.0.1"), LinkFaults.NONE.withDelay(90_000_000L));
        run(network, qps, false);
    }

    private static void run(SimulatedNetwork network, int qps, boolean noRetries) throws Exception {
        EmulatedDevice da = Verbs.emulated().createSimulated(DeviceConfig.of("many-a-" + network.seed() + "-" + System.nanoTime(),
                InetAddress.getByName("10.5.0.1")), network);
        EmulatedDevice db = Verbs.emulated().createSimulated(DeviceConfig.of("many-b-" + network.seed() + "-" + System.nanoTime(),
                InetAddress.getByName("10.5.0.2")), network);
        try (Arena arena = Arena.ofShared(); Context a = da.open(); Context b = db.open()) {
            Pd pdA = a.allocPd();
            Pd pdB = b.allocPd();
            MemorySegment src = arena.allocate(SIZE, 4096);
            MemorySegment dst = arena.allocate(SIZE, 4096);
            Mr mrA = pdA.regMr(src, Access.LOCAL_WRITE);
            Mr mrB = pdB.regMr(dst, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            Cq cqA = a.createCq(qps + 1, null);
            Cq cqB = b.createCq(qps + 1, null);
            QpCapabilities caps = new QpCapabilities(WRITES, 1, 1, 1, 0);
            Qp[] qa = new Qp[qps];
            for (int i = 0; i < qps; i++) {
                qa[i] = pdA.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
                Qp qb = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
                QpConnect.to(new QpPeer(qb.qpNum(), 0, b.queryGid(1, 1).gid())).apply(qa[i]);
                QpConnect.to(new QpPeer(qa[i].qpNum(), 0, a.queryGid(1, 1).gid())).apply(qb);
            }
            SendWr wr = new SendWr(1);
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.sgl.add(src.address(), SIZE, mrA.lkey());
            wr.remoteAddr = dst.address();
            wr.rkey = mrB.rkey();
            for (int n = 0; n < WRITES; n++) {
                wr.flags = n == WRITES - 1 ? SendWr.SIGNALED : 0; // as perftest signals a QP's last write
                for (Qp qp : qa) {
                    qp.postSend(wr);
                }
            }
            WorkCompletion[] wcs = new WorkCompletion[16];
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new WorkCompletion();
            }
            int[] done = {0};
            long start = network.time().nanoTime();
            boolean all = network.time().runUntil(() -> {
                int n = cqA.poll(wcs);
                for (int i = 0; i < n; i++) {
                    assertThat(wcs[i].status()).isEqualTo(WcStatus.SUCCESS);
                }
                done[0] += n;
                return done[0] == qps;
            }, 10_000_000_000L);
            long took = network.time().nanoTime() - start;
            assertThat(all).as("every QP's last write completed; %d of %d", done[0], qps).isTrue();
            assertThat(a.counters().get("retry_exceeded_err")).isZero();
            if (noRetries) {
                assertThat(a.counters().get("completer_retry_err")).as("retries, %d ns of virtual time", took).isZero();
                assertThat(b.counters().get("duplicate_request")).isZero();
            }
        } finally {
            Verbs.emulated().remove(da);
            Verbs.emulated().remove(db);
        }
    }
}
