package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class PeakRateTest {
    @Test
    void peakIsTheBestTimePerMessage() {
        // Four messages posted 10 ns apart, completions known every 2: the last pair went fastest.
        long[] posted = {0, 10, 20, 30};
        long[] completed = {0, 100, 0, 110};
        assertThat(PeakRate.bestNanosPerMessage(posted, completed, 4, 2, 1)).isEqualTo(27.5);
    }

    @Test
    void withPostListsThePeakStartsOnlyAtAChainsFirstPost() {
        // Two chains of 2 posted at 0 and 20 (perftest records the time of a chain's post only): the runs start at
        // 0 or 20, never at 10 or 30, whose times are not known.
        long[] posted = {0, 999, 20, 999};
        long[] completed = {0, 100, 0, 110};
        assertThat(PeakRate.bestNanosPerMessage(posted, completed, 4, 2, 2)).isEqualTo(27.5);
        assertThat(PeakRate.bestNanosPerMessage(posted, completed, 4, 2, 1)).as("the unknown times, if read").isLessThan(27.5);
    }

    /** Runs as a bandwidth test records them (times only rise) and arbitrary ones: the sweep finds perftest's minimum. */
    @Test
    void theSweepFindsWhatEveryPairWouldFind() {
        Random random = new Random(20261203);
        for (int run = 0; run < 3_000; run++) {
            int total = 1 + random.nextInt(400);
            int cqMod = 1 + random.nextInt(24);
            int step = 1 + random.nextInt(4);
            boolean rising = run % 3 != 0;
            long[] posted = new long[total];
            long[] completed = new long[total];
            long t = random.nextInt(1_000);
            for (int k = 0; k < total; k++) {
                t += rising ? random.nextInt(random.nextBoolean() ? 50 : 5_000) : 0;
                posted[k] = rising ? t : random.nextInt(1_000_000);
                completed[k] = rising ? t + 1_000 + random.nextInt(20_000) : random.nextInt(1_000_000);
            }
            if (rising) {
                for (int k = 1; k < total; k++) {
                    completed[k] = Math.max(completed[k], completed[k - 1]);
                }
            }
            double expected = everyPair(posted, completed, total, cqMod, step);
            assertThat(PeakRate.bestNanosPerMessage(posted, completed, total, cqMod, step))
                    .as("run %d: %d messages, cq_mod %d, post list %d", run, total, cqMod, step)
                    .isCloseTo(expected, within(Math.abs(expected) * 1e-9 + 1e-9));
        }
    }

    /** perftest's definition: every post of a chain against every later known completion. */
    private static double everyPair(long[] posted, long[] completed, int total, int cqMod, int step) {
        double best = completed[total - 1] - posted[0];
        for (int i = 0; i < total; i += step) {
            for (int j = i; j < total; j++) {
                if ((j + 1) % cqMod == 0 || j == total - 1) {
                    best = Math.min(best, (double) (completed[j] - posted[i]) / (j - i + 1));
                }
            }
        }
        return Math.max(best, 1);
    }
}
