package io.jrxe.verbs.idle;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PollWindowTest {
    @Test
    void aThreadPollsForTheWindowAfterItsLastWorkThenBlocks() {
        PollWindow window = new PollWindow(200_000);
        assertThat(window.idle(1_000_000)).as("the first idle look opens the window").isTrue();
        assertThat(window.idle(1_150_000)).as("inside it").isTrue();
        assertThat(window.idle(1_200_000)).as("once it is over: block").isFalse();
        assertThat(window.idle(5_000_000)).as("woken without work: block again").isFalse();
        window.worked();
        assertThat(window.idle(6_000_000)).as("work opens it again").isTrue();
        assertThat(window.idle(6_300_000)).isFalse();
    }

    @Test
    void aWindowOfZeroBlocksAtOnce() {
        assertThat(new PollWindow(0).idle(1_000)).isFalse();
    }

    @Test
    void aTimerQueueRunsWhatIsDueInDeadlineOrderThenAdditionOrder() {
        TimerQueue timers = new TimerQueue();
        StringBuilder ran = new StringBuilder();
        timers.add(30, () -> ran.append('c'));
        timers.add(10, () -> ran.append('a'));
        timers.add(10, () -> ran.append('b'));
        timers.add(99, () -> ran.append('z'));
        assertThat(timers.nextDeadline()).isEqualTo(10);
        Runnable due;
        while ((due = timers.takeDue(50)) != null) {
            due.run();
        }
        assertThat(ran).hasToString("abc");
        assertThat(timers.nextDeadline()).isEqualTo(99);
        assertThat(timers.isEmpty()).isFalse();
    }

    @Test
    void anEmptyTimerQueueHasNothingDueEvenAtTheEndOfTime() {
        TimerQueue timers = new TimerQueue();
        assertThat(timers.isEmpty()).isTrue();
        assertThat(timers.nextDeadline()).isEqualTo(Long.MAX_VALUE);
        assertThat(timers.takeDue(Long.MAX_VALUE)).isNull();
        boolean[] ran = new boolean[1];
        timers.add(Long.MAX_VALUE, () -> ran[0] = true);
        assertThat(timers.isEmpty()).isFalse();
        timers.takeDue(Long.MAX_VALUE).run();
        assertThat(ran[0]).isTrue();
        assertThat(timers.isEmpty()).as("emptied again").isTrue();
        assertThat(timers.takeDue(Long.MAX_VALUE)).isNull();
    }
}
