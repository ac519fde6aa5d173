package io.jrxe.rnic.qp;

import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Modify to RESET drops every work request posted to the QP's send and receive queues. */
class QpResetTest {
    private final QpFixture fixture = new QpFixture();

    @ParameterizedTest(name = "from {0}")
    @EnumSource(value = QpState.class, names = {"INIT", "RTR", "RTS", "SQD", "SQE", "ERR"})
    void toResetClearsBothQueues(QpState from) throws RnicException {
        QueuePair qp = fixture.qpIn(QpType.UC, from, new Random(1));
        for (int i = 0; i < 3; i++) {
            SendWqe s = qp.sendQueue().claim();
            s.wrId = 100 + i;
            ReceiveWqe r = qp.recvQueue().claim();
            r.wrId(200 + i);
        }
        qp.sendQueue().publish();
        qp.recvQueue().publish();
        qp.sendQueue().claim(); // claimed but not yet published: dropped as well
        assertThat(qp.sendQueue().depth()).isEqualTo(3);
        assertThat(qp.recvQueue().depth()).isEqualTo(3);

        fixture.modify(qp, new QpAttributes().state(QpState.RESET));

        assertThat(qp.state()).isEqualTo(QpState.RESET);
        assertThat(qp.sendQueue().depth()).isZero();
        assertThat(qp.recvQueue().depth()).isZero();
        assertThat(qp.sendQueue().peek()).isNull();
        assertThat(qp.recvQueue().peek()).isNull();
        // The whole ring is free again.
        for (int i = 0; i < QpFixture.CAPS.maxSendWr(); i++) {
            assertThat(qp.sendQueue().claim()).as("send slot %d", i).isNotNull();
        }
        assertThat(qp.sendQueue().claim()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @EnumSource(QpState.class)
    void onlyResetClearsTheQueues(QpState to) throws RnicException {
        if (to == QpState.RESET || IbtaQpTransitions.rule(QpState.RTS, to, QpType.RC) == null) {
            return;
        }
        QueuePair qp = fixture.qpIn(QpType.RC, QpState.RTS, new Random(2));
        qp.recvQueue().claim().wrId(7);
        qp.recvQueue().publish();
        fixture.modify(qp, new QpAttributes().state(to));
        assertThat(qp.recvQueue().depth()).as("after RTS -> %s", to).isEqualTo(1);
        assertThat(qp.recvQueue().peek().wrId()).isEqualTo(7);
    }
}
