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
        // A start a second ahead: no stall of this thread between here and the clock's read reaches the yielding time.
        idle.idle(1_000, System.nanoTime() + 1_000_000_000L, Long.MAX_VALUE);
        assertThat(sleeper.sleeps).as("a wait shorter than the yielding time yields").isEmpty();
        idle.idle(1_000, System.nanoTime() - 2 * BackoffIdle.YIELD_NANOS, Long.MAX_VALUE);
        assertThat(sleeper.sleeps).as("a wait twice the yielding time sleeps, by the sleeper").hasSize(1);
    }

    /** On the wait's length as a number: through idle(), the clock moves between the call and its read. */
    @Test
    void itsParksGrowAsTheWaitGoesOnUpToFourTimesTheFirst() {
        long yielded = BackoffIdle.YIELD_NANOS;
        assertThat(BackoffIdle.parkNanos(yielded)).isEqualTo(20_000L);
        assertThat(BackoffIdle.parkNanos(yielded + 159_999)).isEqualTo(20_000L);
        assertThat(BackoffIdle.parkNanos(yielded + 160_000)).isEqualTo(40_000L);
        assertThat(BackoffIdle.parkNanos(yielded + 320_000)).isEqualTo(80_000L);
        assertThat(BackoffIdle.parkNanos(yielded + 10_000_000_000L)).isEqualTo(80_000L);
    }

    @Test
    void theIdleStepSaysWhenTheTimeoutPassed() {
        BackoffIdle idle = new BackoffIdle();
        assertThat(idle.idle(1_000, System.nanoTime() - 100_000, 50_000)).isTrue();
        assertThat(idle.idle(1_000, System.nanoTime(), 60_000_000_000L)).isFalse();
    }
}
