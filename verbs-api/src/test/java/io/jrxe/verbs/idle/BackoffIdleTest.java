package io.jrxe.verbs.idle;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffIdleTest {
    /** Counts the sleeps it is asked for, and sleeps none of them. */
    private static final class CountingSleeper implements BackoffIdle.Parker {
        final List<Long> sleeps = new ArrayList<>();

        @Override
        public boolean park(long nanos) {
            sleeps.add(nanos);
            return true;
        }
    }

    @Test
    void aWaitSpinsThenYieldsAndParksOnlyOnceItHasLasted() {
        CountingSleeper sleeper = new CountingSleeper();
        BackoffIdle idle = new BackoffIdle(sleeper);
        idle.idle(1, System.nanoTime() - 10 * BackoffIdle.YIELD_NANOS, Long.MAX_VALUE);
        assertThat(sleeper.sleeps).as("its first looks spin, however long it waited").isEmpty();
        idle.idle(1_000, System.nanoTime() - 100_000, Long.MAX_VALUE);
        assertThat(sleeper.sleeps).as("a wait of 100 us yields").isEmpty();
        idle.idle(1_000, System.nanoTime() - 2 * BackoffIdle.YIELD_NANOS, Long.MAX_VALUE);
        assertThat(sleeper.sleeps).as("a wait twice the yielding time sleeps, by the sleeper").hasSize(1);
    }

    @Test
    void itsParksGrowAsTheWaitGoesOnUpToFourTimesTheFirst() {
        CountingSleeper sleeper = new CountingSleeper();
        BackoffIdle idle = new BackoffIdle(sleeper);
        long now = System.nanoTime();
        idle.idle(1_000, now - BackoffIdle.YIELD_NANOS - 1_000, Long.MAX_VALUE);
        idle.idle(1_000, now - BackoffIdle.YIELD_NANOS - 200_000, Long.MAX_VALUE);
        idle.idle(1_000, now - BackoffIdle.YIELD_NANOS - 10_000_000, Long.MAX_VALUE);
        assertThat(sleeper.sleeps).containsExactly(20_000L, 40_000L, 80_000L);
    }

    @Test
    void theIdleStepSaysWhenTheTimeoutPassed() {
        BackoffIdle idle = new BackoffIdle();
        assertThat(idle.idle(1_000, System.nanoTime() - 100_000, 50_000)).isTrue();
        assertThat(idle.idle(1_000, System.nanoTime(), 60_000_000_000L)).isFalse();
    }
}
