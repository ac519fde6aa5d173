package io.jrxe.rnic.cc;

import io.jrxe.wire.sim.VirtualTime;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/**
 * One QP's DCQCN rate in virtual time: the shape the paper describes (a cut by alpha/2 per CNP,
 * alpha's decay, fast recovery, additive then hyper increase) and a pacer that keeps to the rate.
 */
class DcqcnRateTest {
    private static final long MICROS = 1_000;
    private static final double LINE = DcqcnParameters.DEFAULT_LINE_RATE;

    private final VirtualTime clock = new VirtualTime();
    private final DcqcnCounters counters = new DcqcnCounters();
    /** Every rate change reported, as "why rate". */
    private final List<String> changes = new ArrayList<>();

    private DcqcnRate rate(DcqcnParameters parameters, Runnable wake) {
        return new DcqcnRate(parameters, clock, 0x11, wake, counters, (qpn, why, bitsPerSecond) -> changes.add(why + " " + bitsPerSecond));
    }

    @Test
    void theFirstCnpHalvesTheRateAndLaterOnesCutByHalfOfAlpha() {
        DcqcnRate r = rate(DcqcnParameters.DEFAULTS, () -> { });
        assertThat(r.limited()).isFalse();

        r.congestionNotified();
        assertThat(r.currentRate()).isEqualTo(LINE / 2); // alpha starts at 1
        assertThat(r.targetRate()).isEqualTo(LINE);
        assertThat(r.alpha()).isEqualTo(1.0, within(1e-12)); // (1 - g) * 1 + g

        clock.runFor(40 * DcqcnParameters.DEFAULT_ALPHA_TIMER); // quiet: alpha decays by (1 - g) per period
        double alpha = r.alpha();
        assertThat(alpha).isEqualTo(Math.pow(1 - DcqcnParameters.DEFAULT_GAIN, 40), within(1e-12));
        double before = r.currentRate();
        r.congestionNotified();
        assertThat(r.currentRate()).isEqualTo(before * (1 - alpha / 2), within(1e-3));
        assertThat(r.targetRate()).isEqualTo(before);
        assertThat(r.alpha()).isEqualTo((1 - DcqcnParameters.DEFAULT_GAIN) * alpha + DcqcnParameters.DEFAULT_GAIN,
                within(1e-12));
        assertThat(counters.rateDecreased()).isEqualTo(2);
        assertThat(changes).as("each cut reported with its reason and the rate after it")
                .filteredOn(c -> c.startsWith("CUT"))
                .containsExactly("CUT 5000000000", "CUT " + (long) r.currentRate());
        assertThat(changes).hasSize(2 + (int) counters.rateIncreased());
    }

    @Test
    void cnpsEvery50MicrosecondsDriveTheRateDownGeometricallyToTheMinimum() {
        DcqcnRate r = rate(DcqcnParameters.DEFAULTS, () -> { });
        double previous = r.currentRate();
        int cuts = 0;
        while (r.currentRate() > DcqcnParameters.DEFAULT_MIN_RATE) {
            r.congestionNotified();
            cuts++;
            double now = r.currentRate();
            if (now > DcqcnParameters.DEFAULT_MIN_RATE) {
                // alpha stays near 1 while CNPs come faster than its timer: each cut about halves the rate
                assertThat(now / previous).as("cut %d", cuts).isBetween(0.49, 0.51);
            }
            previous = now;
            clock.runFor(50 * MICROS);
            assertThat(r.currentRate()).as("no increase between CNPs 50 us apart").isEqualTo(now);
        }
        assertThat(r.currentRate()).isEqualTo(DcqcnParameters.DEFAULT_MIN_RATE);
        assertThat(cuts).isEqualTo(7); // 10 Gbit/s halved 7 times passes 100 Mbit/s
        r.congestionNotified();
        assertThat(r.currentRate()).as("never below the minimum").isEqualTo(DcqcnParameters.DEFAULT_MIN_RATE);
        assertThat(counters.rateIncreased()).isZero();
    }

    @Test
    void withoutCnpsFastRecoveryHalvesTheGapFiveTimesThenAdditiveIncreaseRaisesTheTarget() {
        DcqcnRate r = rate(DcqcnParameters.DEFAULTS, () -> { });
        r.congestionNotified();
        double target = r.targetRate();
        double gap = target - r.currentRate();
        for (int step = 1; step <= DcqcnParameters.DEFAULT_FAST_RECOVERY_STEPS; step++) {
            clock.runFor(DcqcnParameters.DEFAULT_RATE_INCREASE_TIMER);
            assertThat(r.lastStep()).as("step %d", step).isEqualTo(RateStep.FAST_RECOVERY);
            assertThat(r.targetRate()).isEqualTo(target);
            assertThat(target - r.currentRate()).as("gap after step %d", step).isEqualTo(gap / (1 << step), within(1.0));
        }
        // the target was the line rate: additive increase cannot raise it, the current rate closes the gap
        clock.runFor(DcqcnParameters.DEFAULT_RATE_INCREASE_TIMER);
        assertThat(r.lastStep()).isEqualTo(RateStep.ADDITIVE);
        assertThat(counters.rateIncreased()).isEqualTo(6);

        // cut twice, so that the target is below the line rate and additive increase shows
        r.congestionNotified();
        clock.runFor(10 * MICROS);
        r.congestionNotified();
        double cutTarget = r.targetRate();
        clock.runFor(DcqcnParameters.DEFAULT_FAST_RECOVERY_STEPS * DcqcnParameters.DEFAULT_RATE_INCREASE_TIMER
                + 10 * MICROS);
        assertThat(r.targetRate()).isEqualTo(cutTarget);
        for (int step = 1; step <= 3; step++) {
            double current = r.currentRate();
            clock.runFor(DcqcnParameters.DEFAULT_RATE_INCREASE_TIMER);
            assertThat(r.lastStep()).isEqualTo(RateStep.ADDITIVE);
            assertThat(r.targetRate()).isEqualTo(cutTarget + step * DcqcnParameters.DEFAULT_ADDITIVE_INCREASE,
                    within(1e-3));
            assertThat(r.currentRate()).isEqualTo((current + r.targetRate()) / 2, within(1e-3));
        }
    }

    @Test
    void aQpThatKeepsSendingGoesThroughFastRecoveryThenAdditiveThenHyperIncreaseBackToTheLineRate() {
        DcqcnParameters parameters = DcqcnParameters.DEFAULTS.withByteCounter(64 * 1024);
        List<RateStep> steps = new ArrayList<>();
        GreedySender sender = new GreedySender(1024);
        DcqcnRate r = rate(parameters, sender);
        sender.rate = r;
        r.congestionNotified();
        r.congestionNotified(); // at once: the target is half the line rate, so there is room to climb
        assertThat(counters.rateLimitedQps()).isEqualTo(1);
        long previousIncreases = 0;
        clock.execute(sender);
        for (int i = 0; i < 200_000 && r.limited(); i++) {
            clock.step();
            if (counters.rateIncreased() != previousIncreases) {
                previousIncreases = counters.rateIncreased();
                if (steps.isEmpty() || steps.getLast() != r.lastStep()) {
                    steps.add(r.lastStep());
                }
            }
        }
        assertThat(steps).containsExactly(RateStep.FAST_RECOVERY, RateStep.ADDITIVE,
                RateStep.HYPER);
        assertThat(r.limited()).as("back at the line rate").isFalse();
        assertThat(r.currentRate()).isEqualTo(LINE);
        assertThat(counters.rateLimitedQps()).as("no longer limited").isZero();
        clock.step();
        assertThat(r.mayTransmit()).as("a packet's time at the line rate passed").isTrue();
        r.transmitted(1_000);
        assertThat(r.mayTransmit()).as("paced at the line rate: the next packet waits its 1,000 bytes' time").isFalse();
    }

    @Test
    void theTimerAndTheByteCounterCountApartAndHyperIncreaseGrowsWithTheStepsPastF() {
        long b = 64 * 1024;
        DcqcnParameters parameters = DcqcnParameters.DEFAULTS.withByteCounter(b)
                .withIncrease(1, DcqcnParameters.DEFAULT_ADDITIVE_INCREASE, DcqcnParameters.DEFAULT_HYPER_INCREASE);
        DcqcnRate r = rate(parameters, () -> { });
        r.congestionNotified();
        r.congestionNotified();
        double target = r.targetRate();
        double ai = DcqcnParameters.DEFAULT_ADDITIVE_INCREASE;
        double hai = DcqcnParameters.DEFAULT_HYPER_INCREASE;

        r.transmitted((int) b); // T 0, BC 0: both below F = 1
        assertThat(r.lastStep()).isEqualTo(RateStep.FAST_RECOVERY);
        assertThat(r.targetRate()).isEqualTo(target);
        clock.runFor(DcqcnParameters.DEFAULT_RATE_INCREASE_TIMER); // T 0, BC 1: one counter reached F
        assertThat(r.lastStep()).isEqualTo(RateStep.ADDITIVE);
        assertThat(r.targetRate()).isEqualTo(target + ai, within(1e-3));
        r.transmitted((int) b); // T 1, BC 1: both have, one step past F at the least
        assertThat(r.lastStep()).isEqualTo(RateStep.HYPER);
        assertThat(r.targetRate()).isEqualTo(target + ai + hai, within(1e-3));
        clock.runFor(DcqcnParameters.DEFAULT_RATE_INCREASE_TIMER); // T 1, BC 2: still one
        assertThat(r.targetRate()).isEqualTo(target + ai + 2 * hai, within(1e-3));
        double current = r.currentRate();
        r.transmitted((int) b); // T 2, BC 2: two steps past F
        assertThat(r.targetRate()).isEqualTo(target + ai + 4 * hai, within(1e-3));
        assertThat(r.currentRate()).isEqualTo((current + r.targetRate()) / 2, within(1e-3));
        assertThat(counters.rateIncreased()).isEqualTo(5);
        assertThat(changes).extracting(c -> c.split(" ")[0])
                .containsExactly("CUT", "CUT", "FAST_RECOVERY", "ADDITIVE", "HYPER", "HYPER", "HYPER");
    }

    @Test
    void thePacerLetsThroughNoMoreThanRateTimesTimePlusOnePacket() {
        // the rate held still for the window: timers and the byte counter too long to step in it
        DcqcnParameters parameters = DcqcnParameters.DEFAULTS.withTimers(1_000_000_000L, 1_000_000_000L)
                .withByteCounter(1L << 40);
        GreedySender sender = new GreedySender(4096);
        DcqcnRate r = rate(parameters, sender);
        sender.rate = r;
        assertThat(r.mayTransmit()).as("a QP at the line rate is not paced").isTrue();
        r.congestionNotified();
        r.congestionNotified();
        r.congestionNotified(); // 1.25 Gbit/s
        double bitsPerSecond = r.currentRate();

        long window = 2_000 * MICROS;
        clock.execute(sender);
        clock.runFor(window);

        double allowed = bitsPerSecond * window / 1e9 / 8;
        assertThat((double) sender.bytes).isLessThanOrEqualTo(allowed + 4096);
        assertThat((double) sender.bytes).as("the pacer does not hold back more than it must")
                .isGreaterThanOrEqualTo(allowed - 4096);
        assertThat(sender.refused).as("held and woken by the pacer between packets")
                .isGreaterThanOrEqualTo((int) (sender.bytes / 4096) - 1);
    }

    @Test
    void settingsOutOfRangeAreRefusedWithWhatIsWrong() {
        DcqcnParameters d = DcqcnParameters.DEFAULTS;
        assertThatThrownBy(() -> d.withGain(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gain g of 0.0");
        assertThatThrownBy(() -> d.withGain(1)).hasMessageContaining("below 1");
        assertThatThrownBy(() -> d.withMinRate(d.lineRateBitsPerSecond() + 1))
                .hasMessageContaining("at most the line rate");
        assertThatThrownBy(() -> d.withLineRate(0)).hasMessageContaining("line rate of 0");
        assertThatThrownBy(() -> d.withTimers(0, 55_000)).hasMessageContaining("alpha timer of 0 ns");
        assertThatThrownBy(() -> d.withTimers(55_000, -1)).hasMessageContaining("rate-increase timer of -1 ns");
        assertThatThrownBy(() -> d.withByteCounter(0)).hasMessageContaining("byte counter of 0 bytes");
        assertThatThrownBy(() -> d.withIncrease(-1, 1, 1)).hasMessageContaining("F = -1");
        assertThatThrownBy(() -> d.withIncrease(5, 0, 1)).hasMessageContaining("additive increase of 0");
        assertThatThrownBy(() -> d.withIncrease(5, 1, 0)).hasMessageContaining("hyper increase of 0");
    }

    /** A QP with endless work: it sends while the pacer lets it, and is run again by the pacer's wake. */
    private static final class GreedySender implements Runnable {
        final int packetBytes;
        DcqcnRate rate;
        long bytes;
        int refused;

        GreedySender(int packetBytes) {
            this.packetBytes = packetBytes;
        }

        @Override
        public void run() {
            while (rate.mayTransmit()) {
                rate.transmitted(packetBytes);
                bytes += packetBytes;
                if (!rate.limited()) {
                    return; // unpaced: it would send forever in no time
                }
            }
            refused++;
        }
    }
}
