package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FirstCompletionWaitTest {
    @Test
    void oneQpWaitsAboutTheTimeout() {
        // 100 x 4 KiB = 400 KiB before the first completion: 13 ms at the floor rate
        assertThat(FirstCompletionWait.millis(10_000, 1, 100, 4096)).isBetween(10_000, 10_020);
    }

    @Test
    void tenThousandQpsWaitForEveryQpsFirstMessagesAtTheFloorRate() {
        // 10,000 x 100 x 4 KiB = 3.9 GiB: 122 s at 32 MiB/s
        assertThat(FirstCompletionWait.millis(10_000, 10_000, 100, 4096)).isBetween(10_000 + 122_000, 10_000 + 122_100);
    }

    @Test
    void aHugeRunDoesNotOverflow() {
        assertThat(FirstCompletionWait.millis(10_000, 100_000, 1000, 1 << 23)).isEqualTo(Integer.MAX_VALUE);
    }
}
