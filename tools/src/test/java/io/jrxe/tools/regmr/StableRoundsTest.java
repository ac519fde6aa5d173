package io.jrxe.tools.regmr;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Rounds repeated until their medians agree: the warm-up rounds run, and are counted in nothing reported. */
class StableRoundsTest {
    /** Rounds that give the scripted timings in turn (nanoseconds), counting how many ran. */
    private static final class Script implements StableRounds.Round {
        private final Deque<long[]> rounds;
        int ran;

        Script(long[]... rounds) {
            this.rounds = new ArrayDeque<>(List.of(rounds));
        }

        @Override
        public StableRounds.Timings run() {
            ran++;
            long[] main = rounds.size() > 1 ? rounds.poll() : rounds.peek();
            long[] beside = main.clone();
            for (int i = 0; i < beside.length; i++) {
                beside[i] /= 2;
            }
            return new StableRounds.Timings(main, beside);
        }
    }

    @Test
    void slowFirstRoundsRunButOnlyTheLastOfThreeThatAgreeIsReported() throws Exception {
        Script script = new Script(new long[] {900_000, 1_000_000, 1_100_000}, new long[] {400_000, 500_000, 600_000},
                new long[] {99_000, 100_000, 101_000}, new long[] {100_000, 101_000, 102_000},
                new long[] {101_000, 102_000, 150_000});
        StableRounds.Settled s = new StableRounds(0.05, 30).run(script);
        assertThat(script.ran).isEqualTo(5);
        assertThat(s.rounds()).isEqualTo(5);
        assertThat(s.settled()).isTrue();
        // The last round's own spread: nothing of the warm-up rounds' 1 ms or 0.5 ms is in it.
        assertThat(s.main()).isEqualTo(new Spread(102, 101, 150));
        assertThat(s.beside()).isEqualTo(new Spread(51, 50.5, 75));
    }

    @Test
    void twoRoundsAlikeAfterAFallAreNotEnough() throws Exception {
        // 500 then 100 and 100: the first three differ, the fourth makes three alike.
        Script script = new Script(new long[] {500_000}, new long[] {100_000}, new long[] {100_000}, new long[] {100_000});
        StableRounds.Settled s = new StableRounds(0.05, 30).run(script);
        assertThat(s.rounds()).isEqualTo(4);
        assertThat(s.settled()).isTrue();
    }

    @Test
    void figuresThatNeverAgreeStopAtTheBoundAndSaySo() throws Exception {
        long[][] rounds = new long[40][];
        for (int i = 0; i < rounds.length; i++) {
            rounds[i] = new long[] {i % 2 == 0 ? 100_000 : 200_000};
        }
        Script script = new Script(rounds);
        StableRounds.Settled s = new StableRounds(0.05, 12).run(script);
        assertThat(script.ran).isEqualTo(12);
        assertThat(s.rounds()).isEqualTo(12);
        assertThat(s.settled()).isFalse();
    }

    @Test
    void mediansAreCloseWithinTheToleranceOfTheLargest() {
        StableRounds rounds = new StableRounds(0.05, 3);
        assertThat(rounds.close(100, 96, 99)).isTrue();
        assertThat(rounds.close(100, 94, 99)).isFalse();
    }

    @Test
    void aToleranceOutsideZeroToOneAndTooFewRoundsAreRefused() {
        assertThatThrownBy(() -> new StableRounds(0, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StableRounds(1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new StableRounds(0.05, 2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 3 rounds");
    }
}
