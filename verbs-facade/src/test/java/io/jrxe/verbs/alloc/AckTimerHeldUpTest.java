package io.jrxe.verbs.alloc;

import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.psn.LocalAckTimeout;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A requester whose NIC thread could not run when its ACK timer was due (a collector's pause): the ACK that came
 * meanwhile is read before a retry is made, so nothing is sent twice; an ACK that was really lost is still retried,
 * at most one more timeout later. Over a {@link DirectLink} the pause is exact: the timers due in it run late,
 * before the datagrams that waited are read, as a real event loop resuming does.
 */
class AckTimerHeldUpTest {
    /** The QPs' ACK timeout (their timeout attribute 14); jrxe waits between it and 1.5 times it. */
    private static final long T = LocalAckTimeout.nanos(14);

    private final DirectPair pair;
    private final DirectLink link;
    private final DirectSide a;
    private final DirectSide b;

    AckTimerHeldUpTest() throws Exception {
        pair = DirectPair.connected("held", "10.9.2.1", "10.9.2.2", 4200);
        link = pair.link;
        link.keepTimers();
        a = pair.a;
        b = pair.b;
    }

    @AfterEach
    void close() {
        pair.close();
    }

    @Test
    void anAckThatCameDuringThePauseIsReadBeforeARetry() throws Exception {
        a.qp.postSend(write());
        link.holdUp(link.a);
        link.runUntilIdle(); // the WRITE reaches b, whose ACK waits unread for a
        link.advance(4 * T); // a's timer is due within 1.5 T: it fires late, before a reads anything

        assertThat(counter(a, "jrxe_ack_timer_held_up")).isEqualTo(1);
        assertThat(counter(a, "completer_retry_err")).as("no retry while the ACK waits unread").isZero();

        link.release(false);
        link.runUntilIdle();
        link.advance(4 * T);

        assertThat(poll(a)).isEqualTo(WcStatus.SUCCESS);
        assertThat(counter(a, "completer_retry_err")).isZero();
        assertThat(counter(a, "sent_pkts")).as("the WRITE, once").isEqualTo(1);
        assertThat(counter(b, "duplicate_request")).isZero();
    }

    @Test
    void anAckLostDuringThePauseIsRetriedWithinOneMoreTimeout() throws Exception {
        a.qp.postSend(write());
        link.holdUp(link.a);
        link.runUntilIdle();
        link.advance(4 * T);
        link.release(true); // the ACK never reaches a
        link.runUntilIdle();
        assertThat(counter(a, "completer_retry_err")).isZero();

        link.advance(T); // the deadline moved on by the pause, at most one timeout
        assertThat(counter(a, "completer_retry_err")).as("the retry after the stretched deadline").isEqualTo(1);
        link.runUntilIdle();

        assertThat(poll(a)).isEqualTo(WcStatus.SUCCESS);
        assertThat(counter(a, "sent_pkts")).as("the WRITE and its resend").isEqualTo(2);
        assertThat(counter(b, "duplicate_request")).isEqualTo(1);
        assertThat(counter(a, "jrxe_ack_timer_held_up")).isEqualTo(1);
    }

    @Test
    void aTimerThatFiresOnTimeRetriesAtOnce() throws Exception {
        a.qp.postSend(write());
        link.holdUp(link.a);
        link.runUntilIdle();
        link.release(true); // the ACK is lost; a's thread runs on: its timer fires on time

        link.advance(2 * T);

        assertThat(counter(a, "jrxe_ack_timer_held_up")).isZero();
        assertThat(counter(a, "completer_retry_err")).isEqualTo(1);
    }

    private SendWr write() {
        SendWr wr = new SendWr(1);
        wr.wrId = 7;
        wr.opcode = WrOpcode.RDMA_WRITE;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(a.memory.address(), 64, a.mr.lkey());
        wr.remoteAddr = b.memory.address() + 4096;
        wr.rkey = b.mr.rkey();
        return wr;
    }

    private static long counter(DirectSide side, String name) throws Exception {
        return side.ctx.counters().get(name);
    }

    private static WcStatus poll(DirectSide side) throws Exception {
        WorkCompletion[] wc = {new WorkCompletion()};
        assertThat(side.cq.poll(wc)).as("one completion").isEqualTo(1);
        return wc[0].status();
    }
}
