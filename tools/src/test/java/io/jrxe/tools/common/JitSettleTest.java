package io.jrxe.tools.common;

import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** The wait for the JIT after a latency loop's warm-up: a quiet stretch at least, and never unbounded. */
class JitSettleTest {
    @Test
    void waitsForAQuietStretchAndNoLongerThanItsLimitAllows() {
        assertThat(ManagementFactory.getCompilationMXBean().isCompilationTimeMonitoringSupported())
                .as("HotSpot reports its compilers' time").isTrue();
        long waited = JitSettle.await();
        assertThat(waited).isGreaterThanOrEqualTo(JitSettle.QUIET_NANOS);
        // the loop stops at the limit; its last nap of 2 ms may overrun, by a time slice or so, not by seconds
        assertThat(waited).isLessThan(JitSettle.LIMIT_NANOS + 5_000_000_000L);
    }
}
