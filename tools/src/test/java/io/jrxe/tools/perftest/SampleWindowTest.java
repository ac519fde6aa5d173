package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** perftest's -D sampling: what completes in the margins is not counted, and the rate is over the window only. */
class SampleWindowTest {
    private static final long S = 1_000_000_000L;
    private static final long T0 = 7 * S;

    @Test
    void countsOnlyBetweenTheMargins() {
        SampleWindow w = SampleWindow.from(T0, 8, 2);
        assertThat(w.observe(T0 + S)).isFalse();
        w.count(100);                              // ramp-up: not counted
        assertThat(w.observe(T0 + 2 * S + 5)).isFalse();
        w.count(40);
        assertThat(w.observe(T0 + 5 * S)).isFalse();
        w.count(60);
        assertThat(w.observe(T0 + 6 * S + 5)).isFalse();
        w.count(1_000);                            // the drain: not counted
        assertThat(w.observe(T0 + 8 * S)).isTrue();
        assertThat(w.counted()).isEqualTo(100);
        assertThat(w.seconds(T0 + 9 * S)).isCloseTo(4.0, within(1e-9));
    }

    @Test
    void aZeroMarginMeasuresTheWholeDuration() {
        SampleWindow w = SampleWindow.from(T0, 1, 0);
        w.observe(T0);
        w.count(3);
        assertThat(w.observe(T0 + S)).isTrue();
        w.count(5);
        assertThat(w.counted()).isEqualTo(3);
        assertThat(w.seconds(T0 + 2 * S)).isCloseTo(1.0, within(1e-9));
    }

    @Test
    void aRunThatStopsEarlyIsMeasuredUpToItsStop() {
        SampleWindow w = SampleWindow.from(T0, 20, 5);
        assertThat(w.seconds(T0 + 4 * S)).as("never opened").isZero();
        w.observe(T0 + 5 * S);
        w.count(10);
        assertThat(w.seconds(T0 + 7 * S)).isCloseTo(2.0, within(1e-9));
    }

    @Test
    void theDurationMustExceedTwiceTheMargin() {
        assertThatThrownBy(() -> SampleWindow.from(T0, 4, 2)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SampleWindow.from(T0, 4, -1)).isInstanceOf(IllegalArgumentException.class);
    }
}
