package io.jrxe.tools.common;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class JitActivityTest {
    private static final int STEPS_PER_WINDOW = (int) (JitActivity.WINDOW_NANOS / JitActivity.STEP_NANOS);

    @Test
    void busyUntilAWholeWindowWasSeenThenQuietWhenNothingCompiles() {
        AtomicLong total = new AtomicLong(5_000);
        JitActivity jit = new JitActivity(total::get);
        long now = 0;
        for (int i = 0; i < STEPS_PER_WINDOW; i++, now += JitActivity.STEP_NANOS) {
            assertThat(jit.busy(now)).as("step %d", i).isTrue();
        }
        assertThat(jit.busy(now)).isFalse();
    }

    @Test
    void compilersThatWorkAFifthOfTheTimeAreBusyAndQuietOnceTheyStop() {
        AtomicLong total = new AtomicLong();
        JitActivity jit = new JitActivity(total::get);
        long now = 0;
        long stepMillis = JitActivity.STEP_NANOS / 1_000_000;
        for (int i = 0; i < 3 * STEPS_PER_WINDOW; i++, now += JitActivity.STEP_NANOS) {
            jit.busy(now);
            total.addAndGet(stepMillis / 5);
        }
        assertThat(jit.busy(now)).isTrue();
        for (int i = 0; i < STEPS_PER_WINDOW; i++) {
            now += JitActivity.STEP_NANOS;
            jit.busy(now);
        }
        assertThat(jit.busy(now + JitActivity.STEP_NANOS)).isFalse();
    }

    @Test
    void samplesAtMostOncePerStep() {
        AtomicLong total = new AtomicLong();
        JitActivity jit = new JitActivity(total::get);
        long now = 0;
        for (int i = 0; i <= STEPS_PER_WINDOW; i++, now += JitActivity.STEP_NANOS) {
            jit.busy(now);
        }
        total.addAndGet(1_000); // a burst of compilation, then a call within the same step: not sampled yet
        assertThat(jit.busy(now - 1)).isFalse();
        assertThat(jit.busy(now)).isTrue();
    }

    @Test
    void withoutAJitNothingIsBusy() {
        assertThat(new JitActivity(null).busy(0)).isFalse();
    }
}
