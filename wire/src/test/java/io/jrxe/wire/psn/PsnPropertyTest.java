package io.jrxe.wire.psn;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * PSN arithmetic against references that cannot overflow (BigInteger, or an interval test in
 * long arithmetic), on random PSNs that crowd around 0, 2^23 and 2^24 - 1. Seeded: a failure
 * names the seed; -Djrxe.seed=N replays it.
 */
class PsnPropertyTest {
    private static final int ITERATIONS = 10_000;
    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(24);
    private static final long HALF = 1L << 23;

    private final long seed = Long.getLong("jrxe.seed", new Random().nextLong());
    private final Random random = new Random(seed);

    @Test
    void addMatchesBigIntegerModulo() {
        for (int i = 0; i < ITERATIONS; i++) {
            int psn = randomPsn();
            int n = random.nextBoolean() ? random.nextInt() : random.nextInt(2049) - 1024;
            long expected = BigInteger.valueOf(psn).add(BigInteger.valueOf(n)).mod(MODULUS).longValueExact();
            assertThat(Psn.add(psn, n)).as(where("add(0x%x, %d)", psn, n)).isEqualTo(expected);
            assertThat(Psn.next(psn)).as(where("next(0x%x)", psn)).isEqualTo(Psn.add(psn, 1));
        }
    }

    @Test
    void diffCompareBeforeAfterMatchTheReference() {
        for (int i = 0; i < ITERATIONS; i++) {
            int a = randomPsn();
            int b = randomPsn();
            long expected = referenceDiff(a, b);
            assertThat(Psn.diff(a, b)).as(where("diff(0x%x, 0x%x)", a, b)).isEqualTo(expected);
            assertThat(Psn.compare(a, b)).as(where("compare(0x%x, 0x%x)", a, b)).isEqualTo(expected);
            assertThat(Psn.before(a, b)).as(where("before(0x%x, 0x%x)", a, b)).isEqualTo(expected < 0);
            assertThat(Psn.after(a, b)).as(where("after(0x%x, 0x%x)", a, b)).isEqualTo(expected > 0);
        }
    }

    @Test
    void orderIsAntisymmetricExceptAtExactlyHalfTheSpace() {
        for (int i = 0; i < ITERATIONS; i++) {
            int a = randomPsn();
            int b = random.nextInt(4) == 0 ? Psn.add(a, Psn.HALF + random.nextInt(3) - 1) : randomPsn();
            if (Psn.distance(a, b) == Psn.HALF) {
                continue;
            }
            assertThat(Psn.before(a, b)).as(where("before(0x%x, 0x%x) vs after(b, a)", a, b))
                    .isEqualTo(Psn.after(b, a));
            assertThat(Integer.signum(Psn.compare(a, b))).as(where("compare(0x%x, 0x%x) vs compare(b, a)", a, b))
                    .isEqualTo(-Integer.signum(Psn.compare(b, a)));
        }
    }

    @Test
    void addingTheDiffOrTheDistanceReachesTheOtherPsn() {
        for (int i = 0; i < ITERATIONS; i++) {
            int a = randomPsn();
            int b = randomPsn();
            assertThat(Psn.add(a, Psn.diff(b, a))).as(where("add(0x%x, diff(0x%x, 0x%x))", a, b, a)).isEqualTo(b);
            assertThat(Psn.add(a, Psn.distance(a, b))).as(where("add(0x%x, distance(0x%x, 0x%x))", a, a, b))
                    .isEqualTo(b);
        }
    }

    @Test
    void distanceMatchesBigIntegerModulo() {
        for (int i = 0; i < ITERATIONS; i++) {
            int a = randomPsn();
            int b = randomPsn();
            long expected = BigInteger.valueOf(b).subtract(BigInteger.valueOf(a)).mod(MODULUS).longValueExact();
            assertThat(Psn.distance(a, b)).as(where("distance(0x%x, 0x%x)", a, b)).isEqualTo(expected);
        }
    }

    @Test
    void inWindowMatchesAnIntervalTestThatKnowsAboutTheWrap() {
        for (int i = 0; i < ITERATIONS; i++) {
            int start = randomPsn();
            int size = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(8);
                case 1 -> Psn.MODULUS - random.nextInt(3);
                default -> random.nextInt(Psn.MODULUS + 1);
            };
            int psn = random.nextBoolean() ? randomPsn() : Psn.add(start, size + random.nextInt(5) - 2);
            long end = (long) start + size; // exclusive, may pass 2^24
            boolean expected = end <= Psn.MODULUS
                    ? psn >= start && psn < end
                    : psn >= start || psn < end - Psn.MODULUS;
            assertThat(Psn.inWindow(psn, start, size)).as(where("inWindow(0x%x, 0x%x, %d)", psn, start, size))
                    .isEqualTo(expected);
        }
    }

    @Test
    void smallWindowsHoldExactlyThePsnsCountedFromTheirStart() {
        for (int i = 0; i < ITERATIONS / 10; i++) {
            int start = randomPsn();
            int size = random.nextInt(17);
            java.util.Set<Integer> window = new java.util.HashSet<>();
            int psn = start;
            for (int k = 0; k < size; k++) {
                window.add(psn);
                psn = psn == 0xFFFFFF ? 0 : psn + 1;
            }
            for (int probe = -3; probe < size + 3; probe++) {
                int candidate = Psn.add(start, probe);
                assertThat(Psn.inWindow(candidate, start, size))
                        .as(where("inWindow(0x%x, 0x%x, %d)", candidate, start, size))
                        .isEqualTo(window.contains(candidate));
            }
        }
    }

    /** Signed distance from b to a in [-2^23, 2^23): the IBTA's split of the PSN space in two halves. */
    private static long referenceDiff(int a, int b) {
        long d = BigInteger.valueOf(a).subtract(BigInteger.valueOf(b)).mod(MODULUS).longValueExact();
        return d >= HALF ? d - (HALF << 1) : d;
    }

    /** Uniform half the time; otherwise within a few of 0, 2^23 or 2^24 - 1, where the wraps are. */
    private int randomPsn() {
        if (random.nextBoolean()) {
            return random.nextInt(Psn.MODULUS);
        }
        int[] edges = {0, Psn.HALF, Psn.MASK};
        return Psn.add(edges[random.nextInt(edges.length)], random.nextInt(9) - 4);
    }

    private String where(String what, Object... args) {
        return "seed " + seed + " (replay: -Djrxe.seed=" + seed + "): " + String.format(what, args);
    }
}
