package io.jrxe.verbs.sim;

import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.chain;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.rdma;
import static io.jrxe.verbs.sim.Ops.recv;
import static org.assertj.core.api.Assertions.assertThat;

/** A QP moved to the error state flushes its outstanding work: WR_FLUSH_ERR for each, in order. */
class QpErrorFlushTest {
    @Test
    void modifyToErrorFlushesBothQueuesInOrder() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC))) {
            Wire.on(p).drop(-1, Wire.fromSide(p.b)); // nothing is ever acknowledged
            p.a.qp.postRecv(chain(recv(p.a, 0, 10, 101), recv(p.a, 0, 10, 102)));
            p.a.qp.postSend(chain(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 1),
                    id(rdma(p.a, WrOpcode.RDMA_READ, 0, 10, p.b, 0), 2), id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 3)));
            p.run(MS);
            assertThat(p.sendCompletions(p.a)).isEmpty();

            p.a.qp.modify(new QpAttributes().state(QpState.ERR));
            p.run(MS, () -> p.sendCompletions(p.a).size() >= 3 && p.recvCompletions(p.a).size() >= 2);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(1L, 2L, 3L);
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.WR_FLUSH_ERR);
            assertThat(p.recvCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(101L, 102L);
            assertThat(p.recvCompletions(p.a)).extracting(WorkCompletion::status).containsOnly(WcStatus.WR_FLUSH_ERR);
        }
    }

    @Test
    void workPostedToAQpInErrorIsFlushedWithoutTouchingTheWire() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC))) {
            Wire wire = Wire.on(p);
            p.a.qp.modify(new QpAttributes().state(QpState.ERR));
            p.a.qp.postSend(id(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0), 7));
            p.a.qp.postRecv(recv(p.a, 0, 10, 8));
            p.run(MS, () -> !p.sendCompletions(p.a).isEmpty() && !p.recvCompletions(p.a).isEmpty());
            assertThat(p.sendCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(7L);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.WR_FLUSH_ERR);
            assertThat(p.recvCompletions(p.a)).extracting(WorkCompletion::wrId).containsExactly(8L);
            assertThat(wire.packets()).isEmpty();
        }
    }

    @Test
    void aPeerInErrorDropsWhatArrivesAndTheRequesterTimesOut() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).timeout(8).retryCnt(1))) {
            Wire wire = Wire.on(p);
            p.b.qp.modify(new QpAttributes().state(QpState.ERR));
            p.a.qp.postSend(rdma(p.a, WrOpcode.RDMA_WRITE, 0, 10, p.b, 0));
            p.awaitOn(p.a, 1, 0, 100 * MS);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
            assertThat(wire.count(Wire.opcode(Opcode.RC_RDMA_WRITE_ONLY))).isEqualTo(2);
            assertThat(wire.count(Wire.fromSide(p.b))).isZero();
        }
    }
}
