package io.jrxe.rnic.queue;

import io.jrxe.verbs.WcStatus;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Request-notify (ibv_req_notify_cq) and the completion channel: an armed CQ signals its channel
 * once for the next completion (or, solicited-only, for the next solicited or error one), then
 * must be armed again.
 */
class CqNotifyTest {
    private final CompletionChannel channel = new CompletionChannel(7);
    private final CompletionQueue cq = new CompletionQueue(1, 16, channel);

    @Test
    void armedForTheNextCompletionItSignalsOnce() throws InterruptedException {
        cq.requestNotify(false);
        assertThat(channel.pending()).as("arming alone signals nothing").isZero();
        Completions.push(cq, 1);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(cq);

        Completions.push(cq, 2);
        Completions.push(cq, 3, WcStatus.SUCCESS, true);
        assertThat(channel.pending()).as("no second signal without re-arming").isZero();
        assertThat(channel.await(0, TimeUnit.SECONDS)).isNull();

        cq.requestNotify(false);
        Completions.push(cq, 4);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(cq);
        assertThat(cq.depth()).isEqualTo(4);
    }

    @Test
    void solicitedOnlyIgnoresOrdinaryCompletions() throws InterruptedException {
        cq.requestNotify(true);
        Completions.push(cq, 1);
        Completions.push(cq, 2);
        assertThat(channel.pending()).isZero();
        Completions.push(cq, 3, WcStatus.SUCCESS, true);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(cq);
        Completions.push(cq, 4, WcStatus.SUCCESS, true);
        assertThat(channel.pending()).as("disarmed after firing").isZero();
    }

    @Test
    void anErrorCompletionFiresASolicitedOnlyArmedCq() throws InterruptedException {
        cq.requestNotify(true);
        Completions.push(cq, 1, WcStatus.REM_ACCESS_ERR, false);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(cq);
    }

    @Test
    void anUnarmedCqSignalsNothing() {
        Completions.push(cq, 1, WcStatus.SUCCESS, true);
        Completions.push(cq, 2, WcStatus.WR_FLUSH_ERR, false);
        assertThat(channel.pending()).isZero();
    }

    @Test
    void armingAgainForNextWidensASolicitedOnlyArm() throws InterruptedException {
        cq.requestNotify(true);
        cq.requestNotify(false);
        Completions.push(cq, 1);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(cq);
    }

    @Test
    void eventsOfSeveralCqsQueueOnOneChannelInOrder() throws InterruptedException {
        CompletionQueue other = new CompletionQueue(2, 4, channel);
        cq.requestNotify(false);
        other.requestNotify(false);
        Completions.push(other, 1);
        Completions.push(cq, 1);
        assertThat(channel.pending()).isEqualTo(2);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(other);
        assertThat(channel.await(10, TimeUnit.SECONDS)).isSameAs(cq);
    }

    @Test
    void anArmedCqWithoutAChannelJustCompletes() {
        CompletionQueue lonely = new CompletionQueue(3, 4, null);
        lonely.requestNotify(false);
        assertThat(Completions.push(lonely, 1)).isTrue();
    }

    @Test
    void awaitReturnsNullOnceClosed() throws InterruptedException {
        channel.close();
        assertThat(channel.await(10, TimeUnit.SECONDS)).isNull();
    }
}
