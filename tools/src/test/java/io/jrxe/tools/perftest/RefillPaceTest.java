package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class RefillPaceTest {
    @Test
    void aFullQueueOf64KiBWritesNapsThreeQuartersOfItsTimeAtThePeakRate() {
        // 128 x 64 KiB = 8 MiB, 671 us at 12.5 GB/s
        assertThat(RefillPace.napNanos(128, 65536)).isBetween(502_000L, 504_000L);
    }

    @Test
    void smallMessagesDoNotNap() {
        assertThat(RefillPace.napNanos(128, 64)).isZero();
        assertThat(RefillPace.napNanos(0, 65536)).isZero();
    }

    @Test
    void theNapIsCapped() {
        assertThat(RefillPace.napNanos(15_000, 1 << 20)).isEqualTo(RefillPace.MAX_NAP_NANOS);
    }
}
