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
import io.jrxe.wire.port.fault.FaultSpec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many RC QPs writing at once, as write-bw -q N does, on a network that loses nothing: every QP's writes complete
 * and nothing is sent twice. A QP that the device's in-flight cap holds back must not be left with packets in
 * flight that no ACK will answer until its ACK timer fires. On either fixture wire ({@link FixtureWire}).
 */
class ManyQpsTest {
    private static final int WRITES = 20;
    private static final int SIZE = 4096;
    /** The ACK timeout of the test whose ACKs come later than it: 4.096 us x 2^14 = 67 ms, perftest's. */
    private static final int ACK_TIMEOUT = 14;
    /** That test's ACKs' delay, past {@link #ACK_TIMEOUT}. */
    private static final long LATE_ACK_NANOS = 90_000_000L;

    @ParameterizedTest
    @ValueSource(ints = {100, 400})
    void everyQpsWritesCompleteWithoutARetry(int qps) throws Exception {
        run(qps, qps, 0, true);
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
        run(oneWayNanos, 100, oneWayNanos, true);
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
        run(qps + 1, qps, LATE_ACK_NANOS, false);
    }

    /**
     * {@code qps} QPs each write {@link #WRITES} times; the responder's packets (its ACKs) take {@code ackDelayNanos}
     * more on their way (its device's faults). With {@code noRetries}, the ACK timeout is the fixtures' and nothing
     * may be sent twice; without, it is {@link #ACK_TIMEOUT}'s, below the ACKs' delay.
     */
    private static void run(long seed, int qps, long ackDelayNanos, boolean noRetries) throws Exception {
        FixtureWire wire = new FixtureWire(seed);
        String names = "many-" + seed + "-" + System.nanoTime();
        EmulatedDevice da = wire.device(DeviceConfig.of(names + "-a", InetAddress.getByName("10.5.0.1")));
        EmulatedDevice db = wire.device(DeviceConfig.of(names + "-b", InetAddress.getByName("10.5.0.2"))
                .withFaults(ackDelayNanos == 0 ? FaultSpec.NONE : FaultSpec.parse("delay=" + ackDelayNanos + "ns,dir=send")));
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
                connect(new QpPeer(qb.qpNum(), 0, b.queryGid(1, 1).gid()), noRetries).apply(qa[i]);
                connect(new QpPeer(qa[i].qpNum(), 0, a.queryGid(1, 1).gid()), noRetries).apply(qb);
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
            long start = wire.nanoTime();
            boolean all = wire.runUntil(() -> {
                int n = cqA.poll(wcs);
                for (int i = 0; i < n; i++) {
                    assertThat(wcs[i].status()).isEqualTo(WcStatus.SUCCESS);
                }
                done[0] += n;
                wire.invoke(db);
            }, () -> done[0] == qps, 10_000_000_000L);
            long took = wire.nanoTime() - start;
            assertThat(all).as("every QP's last write completed; %d of %d", done[0], qps).isTrue();
            assertThat(a.counters().get("retry_exceeded_err")).isZero();
            if (noRetries) {
                assertThat(a.counters().get("completer_retry_err")).as("retries, %d ns of the fixture's time", took).isZero();
                assertThat(b.counters().get("duplicate_request")).isZero();
                // Near the window's limit a QP's messages ask for an ACK every 32 packets, and also at a turn's end
                // and when the window refuses the QP: each ACK is a system call on both sides of real sockets. How
                // often the window refuses is the responder's pace, fixed on the simulated network; on the
                // shared-memory wire it is the machine's (2.6 to 5.4% of the packets on an idle one, 8.5% once under
                // a full build), so there the bound is one ACK per 8 packets, what asking every 8 would exceed.
                long packets = a.counters().get("sent_pkts");
                assertThat(b.counters().get("sent_pkts")).as("the responder's ACKs for %d packets", packets)
                        .isLessThanOrEqualTo(packets / (FixtureWire.ON_SHM ? 8 : 16));
            } else {
                assertThat(a.counters().get("completer_retry_err")).as("the ACKs came after the timeout").isPositive();
            }
        } finally {
            wire.close();
        }
    }

    private static QpConnect connect(QpPeer peer, boolean noRetries) {
        return noRetries ? FixtureWire.connectTo(peer) : QpConnect.to(peer).timeout(ACK_TIMEOUT);
    }
}
