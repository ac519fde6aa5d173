package io.jrxe.verbs.sim;

import io.jrxe.rnic.DeviceConfig;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.sim.SimulatedNetwork;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A receive CQ shared by many QPs that nobody polls, as send-bw -q 1000's server after its duration: it overflows
 * once, every QP on it goes to ERR once, and the flushes of their receives into the full CQ end. (Each lost flush
 * completion once counted as a new overflow and flushed every QP again, until the NIC thread's heap ran out.) On the
 * simulated network the run is bounded in tasks and must end idle; on the shared-memory wire, in real time, it runs
 * until the senders' retries have run out too (seconds, with that wire's least ACK timeout), by which time a flush
 * loop would have counted many overflows and events.
 */
class CqOverflowManyQpsTest {
    private static final int QPS = 50;
    private static final int RECEIVES = 32;
    private static final int CQ_ENTRIES = 64;
    /** Far more than the run needs (its sends, ACKs, retries and flushes), far fewer than a flush loop makes. */
    private static final long MOST_TASKS = 1_000_000;

    @Test
    void anOverflowedCqSharedByManyQpsTakesThemToErrOnce() throws Exception {
        try (FixtureWire wire = new FixtureWire(7)) {
            SimulatedNetwork network = wire.network;
            EmulatedDevice da = wire.device(DeviceConfig.of("cqo-a-" + System.nanoTime(), InetAddress.getByName("10.6.0.1")));
            EmulatedDevice db = wire.device(DeviceConfig.of("cqo-b-" + System.nanoTime(), InetAddress.getByName("10.6.0.2")));
            Runnable step = () -> {
                wire.invoke(da);
                wire.invoke(db);
            };
            try (Arena arena = Arena.ofShared(); Context a = da.open(); Context b = db.open()) {
                Pd pdA = a.allocPd();
                Pd pdB = b.allocPd();
                MemorySegment src = arena.allocate(64, 64);
                MemorySegment dst = arena.allocate(64, 64);
                Mr mrA = pdA.regMr(src, Access.LOCAL_WRITE);
                Mr mrB = pdB.regMr(dst, Access.LOCAL_WRITE);
                Cq cqA = a.createCq(QPS * 2, null);
                Cq cqB = b.createCq(CQ_ENTRIES, null);
                QpCapabilities caps = new QpCapabilities(4, RECEIVES, 1, 1, 0);
                Qp[] qa = new Qp[QPS];
                Qp[] qb = new Qp[QPS];
                RecvWr recv = new RecvWr(1);
                recv.sgl.add(dst.address(), 64, mrB.lkey());
                for (int i = 0; i < QPS; i++) {
                    qa[i] = pdA.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
                    qb[i] = pdB.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
                    FixtureWire.connectTo(new QpPeer(qb[i].qpNum(), 0, b.queryGid(1, 1).gid())).apply(qa[i]);
                    FixtureWire.connectTo(new QpPeer(qa[i].qpNum(), 0, a.queryGid(1, 1).gid())).apply(qb[i]);
                    for (int r = 0; r < RECEIVES; r++) {
                        qb[i].postRecv(recv);
                    }
                }
                SendWr send = new SendWr(1);
                send.opcode = WrOpcode.SEND;
                send.flags = SendWr.SIGNALED; // each send completes on A's CQ, which has room for them all
                send.sgl.add(src.address(), 64, mrA.lkey());
                for (int n = 0; n < 2; n++) {
                    for (Qp qp : qa) {
                        qp.postSend(send); // 100 receive completions for a CQ of 64 that is never polled
                    }
                }
                boolean settled = wire.runUntil(step, () -> network.time().executed() > MOST_TASKS || allInErr(qb),
                        5_000_000_000L);
                assertThat(settled && allInErr(qb)).as("every QP of the overflowed CQ went to ERR").isTrue();
                if (wire.shm()) {
                    // Past the receivers' ERR, the senders retry what was lost until retry_cnt runs out: every send
                    // completes, acknowledged, retried out or flushed behind one that was.
                    WorkCompletion[] wcs = new WorkCompletion[QPS * 2];
                    Arrays.setAll(wcs, i -> new WorkCompletion());
                    int[] sent = {0};
                    assertThat(wire.runUntil(step, () -> (sent[0] += cqA.poll(wcs)) == QPS * 2, 0))
                            .as("%d of the %d sends completed", sent[0], QPS * 2).isTrue();
                } else {
                    // The senders retry until retry_cnt runs out and everything ends: within a bound of tasks, not without end.
                    long runs = network.time().executed();
                    boolean quiet = network.time().runUntil(() -> network.time().idle() || network.time().executed() > MOST_TASKS,
                            30_000_000_000L);
                    assertThat(quiet && network.time().idle()).as("%d tasks, the NIC threads idle", network.time().executed())
                            .isTrue();
                    assertThat(runs).isLessThan(MOST_TASKS);
                }

                Map<AsyncEventType, Integer> events = new EnumMap<>(AsyncEventType.class);
                for (AsyncEvent e = b.pollAsyncEvent(); e != null; e = b.pollAsyncEvent()) {
                    events.merge(e.type(), 1, Integer::sum);
                }
                assertThat(events.get(AsyncEventType.CQ_ERR)).as("events %s", events).isEqualTo(1);
                assertThat(events.get(AsyncEventType.QP_FATAL)).as("events %s", events).isEqualTo(QPS);
                assertThat(b.counters().get("jrxe_cq_overflow")).isEqualTo(1);
            }
        }
    }

    private static boolean allInErr(Qp[] qps) {
        for (Qp qp : qps) {
            if (state(qp) != QpState.ERR) {
                return false;
            }
        }
        return true;
    }

    private static QpState state(Qp qp) {
        try {
            return qp.query().state();
        } catch (io.jrxe.verbs.VerbsException e) {
            throw new AssertionError(e);
        }
    }
}
