package io.jrxe.tools.regmr;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The median, min and max of timings in nanoseconds, given in microseconds. */
class SpreadTest {
    @Test
    void anOddCountsMedianIsItsMiddleTimingWhateverTheOrder() {
        assertThat(Spread.ofNanos(new long[]{9_000, 1_000, 5_000, 7_000, 2_000})).isEqualTo(new Spread(5, 1, 9));
    }

    @Test
    void anEvenCountsMedianIsTheMeanOfTheMiddleTwo() {
        assertThat(Spread.ofNanos(new long[]{4_000, 1_000, 2_000, 10_000})).isEqualTo(new Spread(3, 1, 10));
    }

    @Test
    void noTimingsHaveNoSpread() {
        assertThatThrownBy(() -> Spread.ofNanos(new long[0])).isInstanceOf(IllegalArgumentException.class);
    }
}
