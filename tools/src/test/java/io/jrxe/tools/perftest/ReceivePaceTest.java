package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ReceivePaceTest {
    @Test
    void aFullReceiveQueueOf512NapsHalfItsTimeAtThePeakRate() {
        // 512 messages last 128 us at 4 million a second
        assertThat(ReceivePace.napNanos(512)).isEqualTo(64_000L);
    }

    @Test
    void aShallowQueueDoesNotNap() {
        assertThat(ReceivePace.napNanos(128)).isZero();
        assertThat(ReceivePace.napNanos(0)).isZero();
    }

    @Test
    void theNapIsCapped() {
        assertThat(ReceivePace.napNanos(1 << 20)).isEqualTo(RefillPace.MAX_NAP_NANOS);
    }
}
