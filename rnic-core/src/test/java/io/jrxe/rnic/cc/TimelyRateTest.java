package io.jrxe.rnic.cc;

import io.jrxe.wire.sim.VirtualTime;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * One QP's TIMELY rate fed round-trip samples: additive increase below T_low, a cut in proportion
 * to the excess above T_high, the gradient's rules in between (with hyperactive increase after N
 * falling samples), the bounds, and the pacer holding the QP to its rate.
 */
class TimelyRateTest {
    private static final long MICROS = 1_000;
    private static final double LINE = TimelyParameters.DEFAULT_LINE_RATE;
    private static final double DELTA = TimelyParameters.DEFAULT_ADDITIVE_STEP;
    private static final double BETA = TimelyParameters.DEFAULT_BETA;
    private static final double ALPHA = TimelyParameters.DEFAULT_ALPHA;
    private static final double MIN_RTT = TimelyParameters.DEFAULT_MIN_RTT;

    private final VirtualTime clock = new VirtualTime();
    private final TimelyCounters counters = new TimelyCounters();
    /** Every rate change reported, as "why rate". */
    private final List<String> changes = new ArrayList<>();

    private TimelyRate rate(TimelyParameters parameters, Runnable wake) {
        return new TimelyRate(parameters, clock, 0x11, wake, counters,
                (qpn, why, bitsPerSecond) -> changes.add(why + " " + bitsPerSecond));
    }

    /** A rate brought below the line rate by one sample above T_high, the gradient average still 0. */
    private TimelyRate cutOnce(TimelyParameters parameters) {
        TimelyRate r = rate(parameters, () -> { });
        r.roundTrip(2 * parameters.highThresholdNanos()); // the first sample: no difference yet
        assertThat(r.normalizedGradient()).isZero();
        return r;
    }

    @Test
    void aboveTHighTheRateFallsInProportionToTheExcess() {
        TimelyRate r = rate(TimelyParameters.DEFAULTS, () -> { });
        assertThat(r.limited()).isFalse();

        r.roundTrip(1_000 * MICROS); // twice T_high: 1 - beta (1 - 1/2) = 0.6
        assertThat(r.currentRate()).isEqualTo(LINE * (1 - BETA * 0.5), within(1.0));
        assertThat(r.lastStep()).isEqualTo(RateStep.RTT_HIGH);
        assertThat(r.limited()).isTrue();
        assertThat(counters.rateLimitedQps()).isEqualTo(1);

        double before = r.currentRate();
        r.roundTrip(4_000 * MICROS); // eight times T_high: 1 - beta (1 - 1/8) = 0.3
        assertThat(r.currentRate()).isEqualTo(before * (1 - BETA * (1 - 1.0 / 8)), within(1.0));
        assertThat(counters.rateDecreased()).isEqualTo(2);
        assertThat(changes).containsExactly("RTT_HIGH 6000000000", "RTT_HIGH " + (long) r.currentRate());
    }

    @Test
    void belowTLowTheRateRisesByDeltaPerSampleUpToTheLineRate() {
        TimelyRate r = cutOnce(TimelyParameters.DEFAULTS);
        double cut = r.currentRate();
        for (int i = 1; i <= 10; i++) {
            r.roundTrip(10 * MICROS);
            assertThat(r.currentRate()).as("sample %d", i).isEqualTo(cut + i * DELTA, within(1e-3));
            assertThat(r.lastStep()).isEqualTo(RateStep.RTT_LOW);
        }
        // a falling RTT does not matter below T_low: it is delta, never N delta
        assertThat(r.normalizedGradient()).isNegative();

        int samples = 0;
        while (r.limited()) {
            r.roundTrip(10 * MICROS);
            samples++;
        }
        assertThat(r.currentRate()).isEqualTo(LINE);
        assertThat(samples).isEqualTo((int) Math.ceil((LINE - cut) / DELTA) - 10);
        assertThat(counters.rateLimitedQps()).isZero();
        int reported = changes.size();
        r.roundTrip(10 * MICROS);
        assertThat(r.currentRate()).as("never above the line rate").isEqualTo(LINE);
        assertThat(changes).as("no change, nothing reported").hasSize(reported);
    }

    @Test
    void aRisingRttBetweenTheThresholdsCutsByBetaTimesTheGradient() {
        TimelyParameters parameters = TimelyParameters.DEFAULTS;
        TimelyRate r = rate(parameters, () -> { });
        r.roundTrip(100 * MICROS);
        assertThat(r.lastStep()).as("a first sample has no gradient: it counts as flat").isEqualTo(
                RateStep.GRADIENT_INCREASE);
        assertThat(r.currentRate()).as("already at the line rate").isEqualTo(LINE);

        r.roundTrip(110 * MICROS); // +10 us: the average becomes alpha * 10 us, over minRTT 20 us
        double gradient = ALPHA * 10 * MICROS / MIN_RTT;
        assertThat(r.normalizedGradient()).isEqualTo(gradient, within(1e-12));
        assertThat(r.lastStep()).isEqualTo(RateStep.GRADIENT_DECREASE);
        assertThat(r.currentRate()).isEqualTo(LINE * (1 - BETA * gradient), within(1.0));

        double before = r.currentRate();
        r.roundTrip(112 * MICROS); // +2 us: the average moves by alpha toward it
        double next = ((1 - ALPHA) * ALPHA * 10 * MICROS + ALPHA * 2 * MICROS) / MIN_RTT;
        assertThat(r.normalizedGradient()).isEqualTo(next, within(1e-12));
        assertThat(r.currentRate()).isEqualTo(before * (1 - BETA * next), within(1.0));
    }

    @Test
    void aFallingRttRaisesByDeltaThenByNDeltaFromTheNthFallingSample() {
        TimelyRate r = cutOnce(TimelyParameters.DEFAULTS);
        r.roundTrip(400 * MICROS); // far below the first sample: the gradient turns negative
        List<RateStep> steps = new ArrayList<>();
        List<Double> added = new ArrayList<>();
        steps.add(r.lastStep());
        for (long rtt = 390; rtt >= 340; rtt -= 10) {
            double before = r.currentRate();
            r.roundTrip(rtt * MICROS);
            assertThat(r.normalizedGradient()).isNegative();
            steps.add(r.lastStep());
            added.add(r.currentRate() - before);
        }
        int n = TimelyParameters.DEFAULT_HYPER_INCREASE_SAMPLES;
        assertThat(steps).containsExactly(RateStep.GRADIENT_INCREASE, RateStep.GRADIENT_INCREASE,
                RateStep.GRADIENT_INCREASE, RateStep.GRADIENT_INCREASE, RateStep.GRADIENT_HYPER,
                RateStep.GRADIENT_HYPER, RateStep.GRADIENT_HYPER);
        assertThat(added.get(0)).isEqualTo(DELTA, within(1e-3));
        assertThat(added.get(3)).as("the 5th falling sample in a row").isEqualTo(n * DELTA, within(1e-3));
        assertThat(added.get(5)).isEqualTo(n * DELTA, within(1e-3));

        r.roundTrip(500 * MICROS); // rising again: a cut, and the count of falling samples starts over
        assertThat(r.lastStep()).isEqualTo(RateStep.GRADIENT_DECREASE);
        r.roundTrip(300 * MICROS);
        assertThat(r.lastStep()).isEqualTo(RateStep.GRADIENT_INCREASE);
    }

    @Test
    void theRateNeverFallsBelowTheMinimum() {
        TimelyRate r = rate(TimelyParameters.DEFAULTS, () -> { });
        for (int i = 0; i < 50; i++) {
            r.roundTrip(100_000 * MICROS); // 200 times T_high: each cut keeps about a fifth
        }
        assertThat(r.currentRate()).isEqualTo(TimelyParameters.DEFAULT_MIN_RATE);
        // a gradient above 1 / beta would make the rate negative: it is held at the minimum too
        TimelyRate steep = rate(TimelyParameters.DEFAULTS, () -> { });
        steep.roundTrip(60 * MICROS);
        steep.roundTrip(400 * MICROS);
        assertThat(steep.normalizedGradient() * BETA).isGreaterThan(1);
        assertThat(steep.currentRate()).isEqualTo(TimelyParameters.DEFAULT_MIN_RATE);
    }

    @Test
    void thePacerHoldsAGreedySenderToTheRateAndWakesIt() {
        int[] wakes = {0};
        TimelyRate r = rate(TimelyParameters.DEFAULTS, () -> wakes[0]++);
        r.roundTrip(1_000 * MICROS); // 6 Gbit/s
        double bitsPerSecond = r.currentRate();
        int packet = 4096;
        long sent = 0;
        long until = 2_000 * MICROS;
        while (clock.nanoTime() < until) {
            if (r.mayTransmit()) {
                r.transmitted(packet);
                sent += packet;
            } else {
                int woken = wakes[0];
                clock.step();
                assertThat(wakes[0]).as("a refused turn is woken by the pacer").isEqualTo(woken + 1);
            }
        }
        double allowed = bitsPerSecond * until / 1e9 / 8;
        assertThat((double) sent).isBetween(allowed - packet, allowed + packet);
    }

    @Test
    void aCnpIsNotTimelysSignalAndADetachedRateIgnoresSamples() {
        TimelyRate r = rate(TimelyParameters.DEFAULTS, () -> { });
        assertThat(r.actOnCnp()).isFalse();
        assertThat(r.currentRate()).isEqualTo(LINE);
        r.roundTrip(1_000 * MICROS);
        assertThat(counters.rateLimitedQps()).isEqualTo(1);
        r.detach();
        assertThat(counters.rateLimitedQps()).as("a detached QP is no longer a limited one").isZero();
        r.roundTrip(1_000 * MICROS);
        assertThat(counters.rttSamples()).isEqualTo(1);
    }

    @Test
    void eachParameterOutOfRangeIsRefusedByName() {
        TimelyParameters d = TimelyParameters.DEFAULTS;
        assertThatThrownBy(() -> d.withRates(0, 1)).hasMessage("TIMELY: a line rate of 0 bit/s: it must be positive");
        assertThatThrownBy(() -> d.withRates(1_000, 2_000)).hasMessageStartingWith("TIMELY: a minimum rate of 2000");
        assertThatThrownBy(() -> d.withGains(0, 0.8)).hasMessage("TIMELY: an alpha of 0.0: it must be above 0 and at most 1");
        assertThatThrownBy(() -> d.withGains(0.5, 1.5)).hasMessage("TIMELY: a beta of 1.5: it must be above 0 and at most 1");
        assertThatThrownBy(() -> d.withIncrease(0, 5)).hasMessageStartingWith("TIMELY: an additive step delta of 0");
        assertThatThrownBy(() -> d.withIncrease(1, 0)).hasMessageStartingWith("TIMELY: N = 0 samples");
        assertThatThrownBy(() -> d.withThresholds(0, 10, 1)).hasMessageStartingWith("TIMELY: a T_low of 0 ns");
        assertThatThrownBy(() -> d.withThresholds(50, 50, 1))
                .hasMessage("TIMELY: a T_high of 50 ns: it must be above T_low (50 ns)");
        assertThatThrownBy(() -> d.withThresholds(50, 500, 0)).hasMessageStartingWith("TIMELY: a minRTT of 0 ns");
    }
}
