package io.jrxe.tools.regmr;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The cost of one more page: a least-squares line through the medians, and the step from one size to the next. */
class PageSlopeTest {
    private static SizeCost row(long bytes, double regMicros) {
        Spread reg = new Spread(regMicros, regMicros, regMicros);
        return new SizeCost(bytes, reg, reg, 3, true);
    }

    @Test
    void aCostOfTwentyMicrosecondsPlusFiftyNanosecondsAPageGivesBackBoth() {
        List<SizeCost> rows = List.of(row(4096, 20.05), row(1 << 20, 20 + 256 * 0.05), row(16 << 20, 20 + 4096 * 0.05));
        PageSlope slope = PageSlope.of(rows);
        assertThat(slope.nanosPerPage()).isCloseTo(50, within(1e-6));
        assertThat(slope.fixedMicros()).isCloseTo(20, within(1e-6));
        assertThat(CostTable.marginal(null, rows.get(0))).isEqualTo("-");
        assertThat(CostTable.marginal(rows.get(0), rows.get(1))).isEqualTo("50.0");
        assertThat(CostTable.marginal(rows.get(1), rows.get(2))).isEqualTo("50.0");
    }

    @Test
    void oneSizeHasNoSlope() {
        assertThat(PageSlope.of(List.of(row(4096, 20)))).isNull();
        assertThat(PageSlope.of(List.of(row(4096, 20), row(100, 20)))).isNull();
    }

    @Test
    void aWarmUpPassCoversSixteenMibOfPagesWithEachSizeAtMostAThousandTimes() {
        assertThat(RegistrationTimer.warmUpCalls(4096)).isEqualTo(1000);
        assertThat(RegistrationTimer.warmUpCalls(64 << 10)).isEqualTo(256);
        assertThat(RegistrationTimer.warmUpCalls(1 << 20)).isEqualTo(16);
        assertThat(RegistrationTimer.warmUpCalls(16 << 20)).isEqualTo(1);
        assertThat(RegistrationTimer.warmUpCalls(1L << 30)).isEqualTo(1);
    }
}
