package io.jrxe.wire.psn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import org.junit.jupiter.api.Test;

/** Local ACK timeout (IBTA 9.7.6.1.3): 4.096 us x 2^timeout, 0 meaning infinite. */
class LocalAckTimeoutTest {
    @Test
    void zeroIsInfinite() {
        assertThat(LocalAckTimeout.nanos(0)).isEqualTo(LocalAckTimeout.INFINITE).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void fourteenIsAbout67Milliseconds() {
        assertThat(LocalAckTimeout.nanos(14)).isEqualTo(67_108_864L);
    }

    @Test
    void oneIsTwiceTheBase() {
        assertThat(LocalAckTimeout.nanos(1)).isEqualTo(8_192L);
    }

    @Test
    void thirtyOneIsAbout2Hours26Minutes() {
        assertThat(LocalAckTimeout.nanos(31)).isEqualTo(8_796_093_022_208L);
    }

    @Test
    void everyTimeoutIs4096MicrosecondsTimesAPowerOfTwo() {
        BigDecimal base = new BigDecimal("4.096"); // microseconds
        for (int timeout = 1; timeout <= 31; timeout++) {
            long expected = base.multiply(BigDecimal.valueOf(1L << timeout)).movePointRight(3).longValueExact();
            assertThat(LocalAckTimeout.nanos(timeout)).as("nanos(%d)", timeout).isEqualTo(expected);
        }
    }

    @Test
    void outOfRangeIsRejectedNamingTheRange() {
        for (int bad : new int[] {-1, 32, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> LocalAckTimeout.nanos(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(String.valueOf(bad)).hasMessageContaining("0..31");
        }
    }
}
