package io.jrxe.verbs.sim;

import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.jrxe.verbs.sim.Ops.MS;
import static io.jrxe.verbs.sim.Ops.assertSameBytes;
import static io.jrxe.verbs.sim.Ops.fill;
import static io.jrxe.verbs.sim.Ops.id;
import static io.jrxe.verbs.sim.Ops.recv;
import static io.jrxe.verbs.sim.Ops.wr;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Shared receive queues: several QPs take their receives from one SRQ; the limit event fires once. */
class SrqTest {
    private static List<AsyncEvent> events(SimPair.Side s) throws Exception {
        List<AsyncEvent> out = new ArrayList<>();
        AsyncEvent e;
        while ((e = s.ctx.pollAsyncEvent()) != null) {
            out.add(e);
        }
        return out;
    }

    @Test
    void twoQpsConsumeOneSrqInArrivalOrder() throws Exception {
        try (SimPair p = new SimPair(1, new SimPair.Config(QpType.RC).srqOnB(16))) {
            SimPair.Side[] second = p.anotherQpPair();
            for (int i = 0; i < 4; i++) {
                p.b.srq.postRecv(recv(p.b, 100_000 + i * 10_000L, 5000, 40 + i));
            }
            fill(p.a.memory, 0, 8000, 1);
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND, 0, 3000), 1));
            p.awaitOn(p.b, 0, 1, 10 * MS);
            second[0].qp.postSend(id(wr(second[0], WrOpcode.SEND, 3000, 4000), 2));
            p.awaitOn(p.b, 0, 2, 10 * MS);
            p.a.qp.postSend(id(wr(p.a, WrOpcode.SEND_WITH_IMM, 7000, 10), 3));
            p.awaitOn(p.b, 0, 3, 10 * MS);

            List<WorkCompletion> r = p.recvCompletions(p.b);
            assertThat(r).extracting(WorkCompletion::status).containsOnly(WcStatus.SUCCESS);
            assertThat(r).extracting(WorkCompletion::wrId).containsExactly(40L, 41L, 42L);
            assertThat(r).extracting(WorkCompletion::qpNum)
                    .containsExactly(p.b.qp.qpNum(), second[1].qp.qpNum(), p.b.qp.qpNum());
            assertThat(r).extracting(WorkCompletion::byteLen).containsExactly(3000, 4000, 10);
            assertSameBytes(p.b.memory, 100_000, p.a.memory, 0, 3000);
            assertSameBytes(p.b.memory, 110_000, p.a.memory, 3000, 4000);
            assertSameBytes(p.b.memory, 120_000, p.a.memory, 7000, 10);
        }
    }

    @Test
    void postRecvOnAQpWithAnSrqIsRefused() throws Exception {
        try (SimPair p = new SimPair(2, new SimPair.Config(QpType.RC).srqOnB(16))) {
            assertThatThrownBy(() -> p.b.qp.postRecv(recv(p.b, 0, 10, 1))).isInstanceOf(VerbsException.class)
                    .satisfies(e -> assertThat(((VerbsException) e).errno()).isEqualTo(Errno.EINVAL));
        }
    }

    @Test
    void theLimitEventFiresOnceWhenFewerThanTheLimitArePosted() throws Exception {
        try (SimPair p = new SimPair(3, new SimPair.Config(QpType.RC).srqOnB(16))) {
            for (int i = 0; i < 4; i++) {
                p.b.srq.postRecv(recv(p.b, 100_000 + i * 1000L, 1000, i));
            }
            p.b.srq.armLimit(3);
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 10));
            p.awaitOn(p.b, 0, 1, 10 * MS);
            assertThat(events(p.b)).as("3 left: not fewer than 3").isEmpty();

            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 10));
            p.awaitOn(p.b, 0, 2, 10 * MS);
            List<AsyncEvent> fired = events(p.b);
            assertThat(fired).hasSize(1);
            assertThat(fired.getFirst().type()).isEqualTo(AsyncEventType.SRQ_LIMIT_REACHED);

            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 10));
            p.awaitOn(p.b, 0, 3, 10 * MS);
            assertThat(events(p.b)).as("the limit disarms itself").isEmpty();
        }
    }

    @Test
    void anEmptySrqMeansRnrUntilAReceiveIsPosted() throws Exception {
        try (SimPair p = new SimPair(4, new SimPair.Config(QpType.RC).srqOnB(16))) {
            p.a.qp.postSend(wr(p.a, WrOpcode.SEND, 0, 10));
            p.run(MS, () -> p.counter(p.b, io.jrxe.rnic.device.Counter.SEND_RNR_ERR) > 0);
            assertThat(p.recvCompletions(p.b)).isEmpty();
            assertThat(p.counter(p.b, io.jrxe.rnic.device.Counter.SEND_RNR_ERR)).isPositive();
            p.b.srq.postRecv(recv(p.b, 0, 100, 9));
            p.awaitCompletions(1, 1, 10 * MS);
            assertThat(p.recvCompletions(p.b).getFirst().wrId()).isEqualTo(9);
            assertThat(p.sendCompletions(p.a).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        }
    }
}
