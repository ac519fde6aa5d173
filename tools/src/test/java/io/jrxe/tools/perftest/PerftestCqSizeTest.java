package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PerftestCqSizeTest {
    @Test
    void aCqServesEveryQueueWithinTheDevicesMaxCqe() {
        assertThat(PerftestResources.cqEntries(128, 1, 32767)).isEqualTo(128);
        assertThat(PerftestResources.cqEntries(128, 100, 32767)).isEqualTo(12_800);
        assertThat(PerftestResources.cqEntries(128, 10_000, 32767)).as("-q 10000").isEqualTo(32767);
        assertThat(PerftestResources.cqEntries(1, 1, 32767)).as("at least 16").isEqualTo(16);
        assertThat(PerftestResources.cqEntries(1 << 20, 1 << 20, 32767)).as("no overflow").isEqualTo(32767);
    }
}
