package io.jrxe.wire.psn;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PSN arithmetic on hand-picked values, most of them at the 2^24 wrap. */
class PsnTest {
    private static final int MAX = 0xFFFFFF;

    @Test
    void constantsDescribeA24BitSpace() {
        assertThat(new int[] {Psn.BITS, Psn.MASK, Psn.MODULUS, Psn.HALF})
                .containsExactly(24, 0xFFFFFF, 16_777_216, 8_388_608);
    }

    @Test
    void ofKeepsTheLow24Bits() {
        assertThat(Psn.of(0x1234567)).isEqualTo(0x234567);
        assertThat(Psn.of(-1)).isEqualTo(MAX);
        assertThat(Psn.of(899513)).isEqualTo(899513);
    }

    @Test
    void addAndNextWrapAt2To24() {
        assertThat(Psn.next(MAX)).isZero();
        assertThat(Psn.next(0)).isEqualTo(1);
        assertThat(Psn.add(MAX, 1)).isZero();
        assertThat(Psn.add(0xFFFFFE, 5)).isEqualTo(3);
        assertThat(Psn.add(0, -1)).isEqualTo(MAX);
        assertThat(Psn.add(3, -5)).isEqualTo(0xFFFFFE);
        assertThat(Psn.add(5, Psn.MODULUS)).isEqualTo(5);
        assertThat(Psn.add(MAX, Integer.MAX_VALUE)).isEqualTo((MAX + 0x7FFFFFFFL) % Psn.MODULUS);
    }

    @Test
    void diffIsSignedAndCrossesTheWrap() {
        assertThat(Psn.diff(0, MAX)).isEqualTo(1);
        assertThat(Psn.diff(MAX, 0)).isEqualTo(-1);
        assertThat(Psn.diff(2, 0xFFFFFE)).isEqualTo(4);
        assertThat(Psn.diff(7, 7)).isZero();
        assertThat(Psn.diff(Psn.HALF - 1, 0)).isEqualTo(Psn.HALF - 1);
        assertThat(Psn.diff(0, Psn.HALF - 1)).isEqualTo(-(Psn.HALF - 1));
    }

    @Test
    void maxIsBeforeZero() {
        assertThat(Psn.before(MAX, 0)).isTrue();
        assertThat(Psn.after(0, MAX)).isTrue();
        assertThat(Psn.before(0, MAX)).isFalse();
        assertThat(Psn.after(MAX, 0)).isFalse();
        assertThat(Psn.compare(MAX, 0)).isNegative();
        assertThat(Psn.compare(0, MAX)).isPositive();
    }

    @Test
    void aPsnIsNeitherBeforeNorAfterItself() {
        for (int psn : new int[] {0, 1, Psn.HALF, MAX}) {
            assertThat(Psn.before(psn, psn)).isFalse();
            assertThat(Psn.after(psn, psn)).isFalse();
            assertThat(Psn.compare(psn, psn)).isZero();
        }
    }

    @Test
    void orderHoldsUpToJustUnderHalfTheSpace() {
        int a = 0xFFFFF0;
        int b = Psn.add(a, Psn.HALF - 1);
        assertThat(Psn.before(a, b)).isTrue();
        assertThat(Psn.after(b, a)).isTrue();
        assertThat(Psn.before(b, a)).isFalse();
    }

    /**
     * At exactly 2^23 apart each PSN counts as before the other: the space splits into the
     * 2^23 PSNs before a reference PSN and the 2^23 from it on, so the PSN 2^23 away falls in
     * the "before" half seen from either side. Linux's psn_compare ((a - b) << 8 as s32) does
     * the same, and a responder relies on it to call that PSN a duplicate.
     */
    @Test
    void atExactlyHalfTheSpaceEachIsBeforeTheOther() {
        int a = 0x000010;
        int b = Psn.add(a, Psn.HALF);
        assertThat(Psn.diff(b, a)).isEqualTo(-Psn.HALF);
        assertThat(Psn.diff(a, b)).isEqualTo(-Psn.HALF);
        assertThat(Psn.before(a, b)).isTrue();
        assertThat(Psn.before(b, a)).isTrue();
        assertThat(Psn.after(a, b)).isFalse();
    }

    @Test
    void distanceCountsIncrementsForward() {
        assertThat(Psn.distance(0xFFFFFE, 1)).isEqualTo(3);
        assertThat(Psn.distance(1, 0xFFFFFE)).isEqualTo(0xFFFFFD);
        assertThat(Psn.distance(42, 42)).isZero();
        assertThat(Psn.distance(0, MAX)).isEqualTo(MAX);
    }

    @Test
    void inWindowIncludesTheStartAndWrapsAround() {
        assertThat(Psn.inWindow(0xFFFFFE, 0xFFFFFE, 3)).isTrue();
        assertThat(Psn.inWindow(MAX, 0xFFFFFE, 3)).isTrue();
        assertThat(Psn.inWindow(0, 0xFFFFFE, 3)).isTrue();
        assertThat(Psn.inWindow(1, 0xFFFFFE, 3)).isFalse();
        assertThat(Psn.inWindow(0xFFFFFD, 0xFFFFFE, 3)).isFalse();
        assertThat(Psn.inWindow(5, 5, 0)).as("an empty window holds nothing").isFalse();
        assertThat(Psn.inWindow(5, 5, 1)).isTrue();
        assertThat(Psn.inWindow(4, 5, Psn.MODULUS)).as("the whole space holds everything").isTrue();
    }

    @Test
    void formatPrintsSixHexDigits() {
        assertThat(Psn.format(899513)).isEqualTo("0x0db9b9");
        assertThat(Psn.format(0)).isEqualTo("0x000000");
        assertThat(Psn.format(-1)).isEqualTo("0xffffff");
    }
}
