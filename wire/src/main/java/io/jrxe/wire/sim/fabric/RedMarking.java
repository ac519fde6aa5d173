package io.jrxe.wire.sim.fabric;

import java.util.SplittableRandom;

/**
 * RED-style ECN marking on enqueue: a packet that finds the queue at {@code kmin} bytes or fewer is never marked,
 * one that finds it above {@code kmax} always is, and in between the probability rises linearly from 0 to
 * {@code pmax}.
 */
public record RedMarking(long kminBytes, long kmaxBytes, double pmax) {
    /** Never marks. */
    public static final RedMarking OFF = new RedMarking(Long.MAX_VALUE, Long.MAX_VALUE, 0);

    public RedMarking {
        if (kminBytes < 0 || kmaxBytes < kminBytes) {
            throw new IllegalArgumentException("RED marking needs 0 <= Kmin <= Kmax, not Kmin " + kminBytes
                    + " and Kmax " + kmaxBytes);
        }
        if (!(pmax >= 0 && pmax <= 1)) {
            throw new IllegalArgumentException("RED marking's Pmax " + pmax + " is not in 0..1");
        }
    }

    /** The probability of marking a packet that finds {@code depthBytes} queued. */
    public double probability(long depthBytes) {
        if (depthBytes <= kminBytes) {
            return 0;
        }
        if (depthBytes > kmaxBytes) {
            return 1;
        }
        return pmax * (depthBytes - kminBytes) / (double) (kmaxBytes - kminBytes);
    }

    /** Whether to mark a packet that finds {@code depthBytes} queued; draws from {@code random} only in the ramp. */
    public boolean mark(long depthBytes, SplittableRandom random) {
        double p = probability(depthBytes);
        return p >= 1 || (p > 0 && random.nextDouble() < p);
    }
}
