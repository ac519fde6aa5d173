package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.psn.LocalAckTimeout;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.SECOND;
import static io.jrxe.verbs.sim.Ops.US;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The local ACK timeout: at least 4.096 us x 2^timeout, each expiry costs one of retry_cnt (IBTA
 * 9.7.6.1.3). jrxe stretches each wait by up to half of it at random (so that QPs that lost
 * packets together do not retransmit together), so a wait lies in [T, 1.5 T]. On the shared-memory wire, in real
 * time, the exponent is {@link FixtureWire#ackTimeout}'s (at least 16, T = 268 ms) and only what real time guarantees
 * is asserted: the counts, and that no wait was shorter than T.
 */
class AckTimeoutTest {
    static final int TIMEOUT = 10;
    /** The timeout of the fixtures' QPs: 4.19 ms on the simulated network. */
    static final long T = LocalAckTimeout.nanos(FixtureWire.ackTimeout(TIMEOUT));
    /** A round trip on the fixture's network (two 5 us hops) and then some. */
    static final long SLACK = 50 * US;
    /**
     * In real time a packet's time is taken on its way out, a few microseconds after its QP armed the timer, so a
     * resend may come that much less than T after it (on the simulated network both happen at one instant).
     */
    static final long ARMED_BEFORE_SEEN = FixtureWire.ON_SHM ? MS : 0;

    @Test
    void theTimeoutIsWhatTheSpecSays() {
        assertThat(LocalAckTimeout.nanos(TIMEOUT)).isEqualTo(4_096L * (1 << TIMEOUT));
    }

    /** A wait of the fixture's clock: at least {@code least}, and in virtual time at most {@code most} too. */
    private static void assertWait(long waited, long least, long most, String what) {
        if (FixtureWire.ON_SHM) {
            assertThat(waited).as(what).isGreaterThanOrEqualTo(least - ARMED_BEFORE_SEEN);
        } else {
            assertThat(waited).as(what).isBetween(least, most);
        }
    }

    @Test
    void lostAcksWithinRetryCntAreRetriedAfterTheTimeout() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC).timeout(TIMEOUT).retryCnt(3))) {
            Wire wire = Wire.on(p).drop(2, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 4096));
            p.awaitOn(p.a, 1, 0, SECOND);
            long done = p.nanoTime();

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            List<Wire.Packet> writes = wire.matching(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY));
            assertThat(writes).hasSize(3);
            long start = writes.getFirst().time();
            assertWait(writes.get(1).time() - start, T, T + T / 2 + SLACK, "the first resend");
            assertWait(writes.get(2).time() - writes.get(1).time(), T, T + T / 2 + SLACK, "the second resend");
            assertWait(done - start, 2 * T, 3 * T + SLACK, "the completion");
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isEqualTo(2);
            assertThat(p.counter(p.b, Counter.DUPLICATE_REQUEST)).isEqualTo(2);
        }
    }

    @Test
    void acksLostBeyondRetryCntFailTheRequestAfterRetryCntPlusOneTimeouts() throws Exception {
        int retryCnt = 3;
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).timeout(TIMEOUT).retryCnt(retryCnt))) {
            Wire wire = Wire.on(p).drop(-1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 4096));
            p.awaitOn(p.a, 1, 0, 10 * SECOND);
            long done = p.nanoTime();

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
            List<Wire.Packet> writes = wire.matching(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY));
            assertThat(writes).hasSize(retryCnt + 1);
            assertWait(done - writes.getFirst().time(), (retryCnt + 1) * T, (retryCnt + 1) * (T + T / 2) + SLACK,
                    "(retry_cnt + 1) x 4.096 us x 2^timeout, each wait stretched up to 1.5x");
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isEqualTo(retryCnt);
            assertThat(p.counter(p.a, Counter.RETRY_EXCEEDED_ERR)).isEqualTo(1);
        }
    }

    @Test
    void timeoutZeroWaitsForEver() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).timeout(0).retryCnt(1))) {
            Wire wire = Wire.on(p).drop(-1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 4096));
            // in real time, 2 s: more than seven waits of the least timeout on the shared-memory wire
            p.run(FixtureWire.ON_SHM ? 2 * SECOND : 60 * SECOND);
            assertThat(p.sendCompletions(p.a)).isEmpty();
            assertThat(wire.count(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY))).isEqualTo(1);
        }
    }
}
