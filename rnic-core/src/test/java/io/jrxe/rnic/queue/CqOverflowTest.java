package io.jrxe.rnic.queue;

import io.jrxe.rnic.Nics;
import io.jrxe.rnic.DeviceConfig;
import io.jrxe.rnic.NicExecutor;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.rnic.memory.ProtectionDomain;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A CQ that overflows: push says so, and the device raises CQ_ERR for the CQ and moves every QP
 * that completes into it (through its send or its receive side) to ERR with QP_FATAL, leaving
 * other QPs alone.
 */
class CqOverflowTest {
    private final NicResources rnic;
    private final ProtectionDomain pd;

    CqOverflowTest() throws Exception {
        rnic = Nics.resources(DeviceConfig.of("jrxe0", InetAddress.getByName("127.0.0.1")), NicExecutor.INLINE);
        assertThat(rnic.events().poll().type()).as("a new device reports its port up first")
                .isEqualTo(io.jrxe.verbs.AsyncEventType.PORT_ACTIVE);
        pd = rnic.allocatePd();
    }

    private QueuePair udQpInRts(CompletionQueue sendCq, CompletionQueue recvCq) throws RnicException {
        QueuePair qp = Nics.createQp(rnic, pd, QpType.UD, sendCq, recvCq, null, new QpCapabilities(2, 2, 1, 1, 0), false);
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(1), rnic.attributes(), rnic.port());
        qp.modify(new QpAttributes().state(QpState.RTR), rnic.attributes(), rnic.port());
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0), rnic.attributes(), rnic.port());
        return qp;
    }

    @Test
    void anOverflowRaisesCqErrAndTakesItsQpsToErr() throws RnicException {
        CompletionQueue full = rnic.createCq(4, null);
        CompletionQueue other = rnic.createCq(4, null);
        QueuePair sendsIntoIt = udQpInRts(full, other);
        QueuePair receivesIntoIt = udQpInRts(other, full);
        QueuePair bystander = udQpInRts(other, other);

        for (long id = 0; id < full.capacity(); id++) {
            assertThat(Completions.push(full, id)).isTrue();
        }
        assertThat(Completions.push(full, 999)).isFalse();
        assertThat(full.overflowed()).isTrue();
        rnic.cqOverflowed(full, ignored -> { });

        AsyncEvent cqErr = rnic.events().poll();
        assertThat(cqErr.type()).isEqualTo(AsyncEventType.CQ_ERR);
        assertThat(cqErr.element()).isEqualTo(full.handle());
        assertThat(cqErr.reason()).isEqualTo("completion queue overflow: 4 entries were not polled in time");
        AsyncEvent first = rnic.events().poll();
        AsyncEvent second = rnic.events().poll();
        assertThat(rnic.events().poll()).isNull();
        assertThat(first.type()).isEqualTo(AsyncEventType.QP_FATAL);
        assertThat(second.type()).isEqualTo(AsyncEventType.QP_FATAL);
        assertThat(new int[] {first.element(), second.element()})
                .containsExactlyInAnyOrder(sendsIntoIt.qpn(), receivesIntoIt.qpn());
        assertThat(first.reason()).isEqualTo("its " + full + " overflowed");

        assertThat(sendsIntoIt.state()).isEqualTo(QpState.ERR);
        assertThat(receivesIntoIt.state()).isEqualTo(QpState.ERR);
        assertThat(bystander.state()).isEqualTo(QpState.RTS);
        assertThat(rnic.counters().get(Counter.CQ_OVERFLOW)).isEqualTo(1);
        // The completions that fitted are still there to be polled.
        assertThat(full.depth()).isEqualTo(4);
    }

    @Test
    void aQpAlreadyInErrGetsNoSecondFatalEvent() throws RnicException {
        CompletionQueue cq = rnic.createCq(2, null);
        QueuePair qp = udQpInRts(cq, cq);
        rnic.cqOverflowed(cq, ignored -> { });
        assertThat(rnic.events().size()).isEqualTo(2);
        rnic.cqOverflowed(cq, ignored -> { });
        assertThat(rnic.events().size()).isEqualTo(3);
        assertThat(qp.state()).isEqualTo(QpState.ERR);
        assertThat(rnic.counters().get(Counter.CQ_OVERFLOW)).isEqualTo(2);
        assertThat(rnic.events().poll().toString()).startsWith("CQ_ERR on CQ " + cq.handle() + ": completion queue overflow");
        assertThat(rnic.events().poll().toString()).isEqualTo(String.format("QP_FATAL on QP 0x%06x: its %s overflowed",
                qp.qpn(), cq));
    }
}
