package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** RNR NAK timer field encodings (IBTA 9.7.5.2.8, table 45). */
class RnrTimerTest {
    /** The table as printed in the spec, in milliseconds, code 0 first. */
    private static final String[] SPEC_MILLIS = {
        "655.36", "0.01", "0.02", "0.03", "0.04", "0.06", "0.08", "0.12",
        "0.16", "0.24", "0.32", "0.48", "0.64", "0.96", "1.28", "1.92",
        "2.56", "3.84", "5.12", "7.68", "10.24", "15.36", "20.48", "30.72",
        "40.96", "61.44", "81.92", "122.88", "163.84", "245.76", "327.68", "491.52",
    };

    @Test
    void everyCodeHasTheSpecsDelay() {
        for (int code = 0; code < 32; code++) {
            long expectedMicros = new java.math.BigDecimal(SPEC_MILLIS[code]).movePointRight(3).longValueExact();
            assertThat(RnrTimer.micros(code)).as("micros(%d)", code).isEqualTo(expectedMicros);
            assertThat(RnrTimer.nanos(code)).as("nanos(%d)", code).isEqualTo(expectedMicros * 1_000);
        }
    }

    @Test
    void code25FollowsTheSpecNotLinux() {
        assertThat(RnrTimer.micros(25)).isEqualTo(61_440).isNotEqualTo(61_410);
    }

    @Test
    void codeZeroIsTheLongest() {
        assertThat(RnrTimer.micros(0)).isEqualTo(655_360);
        for (int code = 1; code < 32; code++) {
            assertThat(RnrTimer.micros(code)).isLessThan(RnrTimer.micros(0));
        }
    }

    @Test
    void codesOneToThirtyOneGrowStrictly() {
        for (int code = 2; code < 32; code++) {
            assertThat(RnrTimer.micros(code)).as("code %d", code).isGreaterThan(RnrTimer.micros(code - 1));
        }
    }

    @Test
    void codeForRoundTripsEveryCode() {
        for (int code = 0; code < 32; code++) {
            assertThat(RnrTimer.codeFor(RnrTimer.micros(code))).as("codeFor(micros(%d))", code).isEqualTo(code);
        }
    }

    @Test
    void codeForRoundsUpToTheNextDelay() {
        assertThat(RnrTimer.codeFor(0)).isEqualTo(1);
        assertThat(RnrTimer.codeFor(11)).isEqualTo(2);
        assertThat(RnrTimer.codeFor(1_000)).isEqualTo(14);
        assertThat(RnrTimer.codeFor(61_411)).isEqualTo(25);
        assertThat(RnrTimer.codeFor(61_441)).isEqualTo(26);
        assertThat(RnrTimer.codeFor(491_521)).isZero();
        assertThat(RnrTimer.codeFor(10_000_000)).as("longer than any: the longest").isZero();
        for (int code = 1; code < 32; code++) {
            long micros = RnrTimer.micros(code);
            assertThat(RnrTimer.codeFor(micros - 1)).as("codeFor(1 us under code %d)", code).isEqualTo(code);
            assertThat(RnrTimer.codeFor(micros + 1)).as("codeFor(1 us over code %d)", code)
                    .isEqualTo(code == 31 ? 0 : code + 1);
        }
    }

    @Test
    void describeGivesMilliseconds() {
        for (int code = 0; code < 32; code++) {
            assertThat(RnrTimer.describe(code)).as("describe(%d)", code)
                    .isEqualTo(SPEC_MILLIS[code] + " ms");
        }
    }

    @Test
    void outOfRangeCodesAreRejectedNamingTheRange() {
        for (int bad : new int[] {-1, 32, Integer.MIN_VALUE, Integer.MAX_VALUE}) {
            assertThatThrownBy(() -> RnrTimer.micros(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(String.valueOf(bad)).hasMessageContaining("0..31");
            assertThatThrownBy(() -> RnrTimer.nanos(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0..31");
            assertThatThrownBy(() -> RnrTimer.describe(bad)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("0..31");
        }
    }
}
