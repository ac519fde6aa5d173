package io.jrxe.rnic.queue;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A poller asleep on its CQ (sleepUntilCompletion) wakes when the NIC pushes a completion, long before its
 * time is up, and does not sleep at all when a completion is already there.
 */
class CqSleeperTest {
    private static final long LONG_SLEEP = TimeUnit.SECONDS.toNanos(120);
    private static final long BOUND_MILLIS = TimeUnit.SECONDS.toMillis(20);

    private final CompletionQueue cq = new CompletionQueue(1, 16, null);

    @Test
    void aPushWakesTheSleeper() throws InterruptedException {
        Thread sleeper = new Thread(() -> cq.sleepUntilCompletion(LONG_SLEEP), "cq-sleeper");
        sleeper.start();
        long until = System.currentTimeMillis() + BOUND_MILLIS;
        while (sleeper.getState() != Thread.State.TIMED_WAITING && System.currentTimeMillis() < until) {
            Thread.onSpinWait(); // until the sleeper is parked, so that the push must wake it
        }
        assertThat(sleeper.getState()).as("the sleeper parks while the CQ is empty").isEqualTo(Thread.State.TIMED_WAITING);

        Completions.push(cq, 1);
        sleeper.join(BOUND_MILLIS);
        assertThat(sleeper.isAlive()).as("woken by the push, not by its 120 s running out").isFalse();
    }

    @Test
    void aWaitingCompletionMeansNoSleep() throws InterruptedException {
        Completions.push(cq, 1);
        Thread sleeper = new Thread(() -> cq.sleepUntilCompletion(LONG_SLEEP), "cq-sleeper");
        sleeper.start();
        sleeper.join(BOUND_MILLIS);
        assertThat(sleeper.isAlive()).isFalse();
        assertThat(cq.poll(Completions.batch(4), 4)).as("the completion is still there to poll").isEqualTo(1);
    }
}
