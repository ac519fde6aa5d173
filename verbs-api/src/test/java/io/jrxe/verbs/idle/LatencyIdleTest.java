package io.jrxe.verbs.idle;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LatencyIdleTest {
    /** A clock that moves only when the wait yields, by as long as the test says the next yield takes. */
    private static final class ScriptedYields {
        long now;
        long nextYieldNanos;
        int yields;

        LatencyIdle latencyIdle() {
            return new LatencyIdle() {
                @Override
                long nanoTime() {
                    return now;
                }

                @Override
                void yieldCpu() {
                    yields++;
                    now += nextYieldNanos;
                }
            };
        }
    }

    private static final long ALONE = 500;
    private static final long PEERS_TURN = 30_000;
    private static final long BUSY_NEIGHBOURS_TURN = 700_000;

    /** Runs one wait's idle steps until its first yield; returns the look that yielded. */
    private static int lookThatYields(LatencyIdle wait, ScriptedYields script) {
        int before = script.yields;
        for (int spins = 1; spins <= 1_000; spins++) {
            wait.idle(spins, 0, Long.MAX_VALUE);
            if (script.yields > before) {
                return spins;
            }
        }
        throw new AssertionError("no yield in 1,000 looks");
    }

    /** Many waits whose yields all take {@code yieldNanos}: each spins all its looks before it yields. */
    private static void assertEveryWaitSpinsAllItsLooks(long yieldNanos) {
        ScriptedYields script = new ScriptedYields();
        LatencyIdle wait = script.latencyIdle();
        script.nextYieldNanos = yieldNanos;
        for (int i = 0; i < 4 * LatencyIdle.SHARED_YIELDS_IN_A_ROW; i++) {
            assertThat(lookThatYields(wait, script)).as("wait %d", i).isEqualTo(LatencyIdle.SPINS_BEFORE_YIELD);
        }
    }

    @Test
    void aThreadWithItsOwnCpuSpinsItsLooksBeforeItYields() {
        assertEveryWaitSpinsAllItsLooks(ALONE);
    }

    @Test
    void yieldsThatWaitForThePeersTurnInARowMeanASharedCpuAndTheWaitYieldsSoonerUntilAYieldIsQuickAgain() {
        ScriptedYields script = new ScriptedYields();
        LatencyIdle wait = script.latencyIdle();
        script.nextYieldNanos = PEERS_TURN;
        for (int i = 1; i < LatencyIdle.SHARED_YIELDS_IN_A_ROW; i++) {
            assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SPINS_BEFORE_YIELD);
            assertThat(wait.spinsBeforeYield()).as("after %d such yields", i).isEqualTo(LatencyIdle.SPINS_BEFORE_YIELD);
        }
        assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SPINS_BEFORE_YIELD);
        assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SHARED_SPINS);
        assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SHARED_SPINS);

        script.nextYieldNanos = ALONE; // the scheduler moved one of the two away
        assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SHARED_SPINS);
        assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SPINS_BEFORE_YIELD);
    }

    @Test
    void aQuickYieldAmongThePeersTurnsStartsTheCountAgain() {
        ScriptedYields script = new ScriptedYields();
        LatencyIdle wait = script.latencyIdle();
        for (int i = 0; i < 4 * LatencyIdle.SHARED_YIELDS_IN_A_ROW; i++) {
            script.nextYieldNanos = i % LatencyIdle.SHARED_YIELDS_IN_A_ROW == 0 ? ALONE : PEERS_TURN;
            assertThat(lookThatYields(wait, script)).isEqualTo(LatencyIdle.SPINS_BEFORE_YIELD);
        }
    }

    @Test
    void yieldsToAThreadWithWorkOfItsOwnDoNotMakeTheWaitYieldSooner() {
        assertEveryWaitSpinsAllItsLooks(BUSY_NEIGHBOURS_TURN);
    }

    @Test
    void theWaitTimesOutOnlyAfterItsTimeHasPassed() {
        ScriptedYields script = new ScriptedYields();
        LatencyIdle wait = script.latencyIdle();
        script.nextYieldNanos = 1_000;
        boolean timedOut = false;
        int spins = 0;
        while (!timedOut && spins < 100_000) {
            timedOut = wait.idle(++spins, 0, 50_000);
        }
        assertThat(timedOut).isTrue();
        assertThat(script.now).isGreaterThan(50_000).isLessThan(50_000 + 65 * 1_000);
    }
}
