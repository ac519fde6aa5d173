package io.jrxe.tools.common;

import io.jrxe.verbs.WorkCompletion;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.idle.BackoffIdle;
import org.junit.jupiter.api.Test;

import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CompletionWaiterTest {
    /**
     * A CQ whose polls find one completion once {@code readyInNanos} have passed, or never when negative; and its
     * sleeper, which counts the sleeps when the CQ can wake one (as a jrxe NIC's can).
     */
    private static final class ScriptedCq implements Cq, BackoffIdle.Parker {
        private final long readyAt;
        private final boolean never;
        int polls;
        boolean canSleep;
        int sleeps;

        ScriptedCq(long readyInNanos) {
            this.readyAt = System.nanoTime() + readyInNanos;
            this.never = readyInNanos < 0;
        }

        @Override
        public int poll(WorkCompletion[] wcs) {
            polls++;
            return !never && System.nanoTime() - readyAt >= 0 ? 1 : 0;
        }

        @Override
        public boolean park(long nanos) {
            if (canSleep) {
                sleeps++;
            }
            return canSleep;
        }

        @Override
        public void requestNotify(boolean solicitedOnly) {
        }

        @Override
        public int capacity() {
            return 16;
        }

        @Override
        public void resize(int entries) {
        }

        @Override
        public void close() {
        }
    }

    private final WorkCompletion[] wcs = new WorkCompletion[4];

    @Test
    void aCompletionAlreadyThereIsTakenWithoutANap() {
        ScriptedCq cq = new ScriptedCq(0);
        CompletionWaiter waiter = new CompletionWaiter(cq, null, 1000, "a test completion");

        assertThat(waiter.await(wcs, 60_000_000_000L)).isEqualTo(1);
        assertThat(cq.polls).isEqualTo(1);
    }

    @Test
    void aWaiterThatNapsDoesNotPollDuringTheNap() {
        assertOnePollBeforeTheNapAndOneAfter();
    }

    @Test
    void aPermitLeftByAnEarlierUnparkDoesNotCutTheNapShort() {
        // As a future leaves one when it completes just after this thread stopped waiting for it: the nap's first
        // park returns at once, and the nap must go on.
        LockSupport.unpark(Thread.currentThread());
        assertOnePollBeforeTheNapAndOneAfter();
    }

    /**
     * The completion comes during a nap of 200 ms: one poll before it and one after, where a waiter that did not
     * nap would poll in its spins and short parks tens of times. The nap lasts its 200 ms even when parkNanos
     * returns early, so the poll after it finds the completion (due 20 ms after the CQ was made).
     */
    private void assertOnePollBeforeTheNapAndOneAfter() {
        ScriptedCq cq = new ScriptedCq(20_000_000);
        CompletionWaiter waiter = new CompletionWaiter(cq, null, 1000, "a test completion");

        assertThat(waiter.await(wcs, 200_000_000)).isEqualTo(1);
        assertThat(cq.polls).isLessThanOrEqualTo(3);
    }

    @Test
    void aNapDoesNotEndTheWaitForAPeerThatStoppedAnswering() {
        CompletionWaiter waiter = new CompletionWaiter(new ScriptedCq(-1), null, 50, "a test completion");

        assertThatThrownBy(() -> waiter.await(wcs, 1_000_000))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("while waiting for a test completion: the peer stopped answering");
    }

    @Test
    void aWaiterSleepsOnACqThatCanWakeIt() {
        ScriptedCq cq = new ScriptedCq(-1);
        cq.canSleep = true;
        CompletionWaiter waiter = new CompletionWaiter(cq, cq, null, 50, "a test completion", false);

        assertThatThrownBy(() -> waiter.await(wcs)).isInstanceOf(UserError.class);
        assertThat(cq.sleeps).as("its parks were sleeps on the CQ").isPositive();
    }

    @Test
    void aLatencyWaiterNeverSleeps() {
        ScriptedCq cq = new ScriptedCq(-1);
        cq.canSleep = true;
        CompletionWaiter waiter = new CompletionWaiter(cq, cq, null, 50, "a test completion", true);

        assertThatThrownBy(() -> waiter.await(wcs)).isInstanceOf(UserError.class);
        assertThat(cq.sleeps).isZero();
    }
}
