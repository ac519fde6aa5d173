package io.jrxe.verbs.sim;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.psn.LocalAckTimeout;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.verbs.sim.Ops.SECOND;
import static io.jrxe.verbs.sim.Ops.US;
import static io.jrxe.verbs.sim.Ops.rdma;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The local ACK timeout: at least 4.096 us x 2^timeout, each expiry costs one of retry_cnt (IBTA
 * 9.7.6.1.3). jrxe stretches each wait by up to half of it at random (so that QPs that lost
 * packets together do not retransmit together), so a wait lies in [T, 1.5 T].
 */
class AckTimeoutTest {
    static final int TIMEOUT = 10;
    static final long T = 4_096L * (1 << TIMEOUT); // 4.19 ms
    /** A round trip on the fixture's network (two 5 us hops) and then some. */
    static final long SLACK = 50 * US;

    @Test
    void theTimeoutIsWhatTheSpecSays() {
        assertThat(LocalAckTimeout.nanos(TIMEOUT)).isEqualTo(T);
    }

    @Test
    void lostAcksWithinRetryCntAreRetriedAfterTheTimeout() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC).timeout(TIMEOUT).retryCnt(3))) {
            Wire wire = Wire.on(p).drop(2, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 4096));
            p.awaitOn(p.a, 1, 0, SECOND);
            long done = p.network.time().nanoTime();

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
            List<Wire.Packet> writes = wire.matching(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY));
            assertThat(writes).hasSize(3);
            long start = writes.getFirst().time();
            assertThat(writes.get(1).time() - start).isBetween(T, T + T / 2 + SLACK);
            assertThat(writes.get(2).time() - writes.get(1).time()).isBetween(T, T + T / 2 + SLACK);
            assertThat(done - start).isBetween(2 * T, 3 * T + SLACK);
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
            long done = p.network.time().nanoTime();

            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
            List<Wire.Packet> writes = wire.matching(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY));
            assertThat(writes).hasSize(retryCnt + 1);
            long elapsed = done - writes.getFirst().time();
            assertThat(elapsed).as("(retry_cnt + 1) x 4.096 us x 2^timeout, each wait stretched up to 1.5x")
                    .isBetween((retryCnt + 1) * T, (retryCnt + 1) * (T + T / 2) + SLACK);
            assertThat(p.counter(p.a, Counter.COMPLETER_RETRY_ERR)).isEqualTo(retryCnt);
            assertThat(p.counter(p.a, Counter.RETRY_EXCEEDED_ERR)).isEqualTo(1);
        }
    }

    @Test
    void timeoutZeroWaitsForEver() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).timeout(0).retryCnt(1))) {
            Wire wire = Wire.on(p).drop(-1, Wire.opcode(Opcode.RC_ACKNOWLEDGE));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 100, p.b, 4096));
            p.run(60 * SECOND);
            assertThat(p.sendCompletions(p.a)).isEmpty();
            assertThat(wire.count(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY))).isEqualTo(1);
        }
    }
}
