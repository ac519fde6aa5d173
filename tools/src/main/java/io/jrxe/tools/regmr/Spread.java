package io.jrxe.tools.regmr;

import java.util.Arrays;

/**
 * The median, fastest and slowest of a few timings, in microseconds. The median, not the mean: one timing
 * that met a GC pause or a context switch would move a mean of seven by far more than the cost measured.
 */
public record Spread(double medianMicros, double minMicros, double maxMicros) {
    /** The spread of {@code nanos} (at least one timing); an even count's median is the mean of the middle two. */
    public static Spread ofNanos(long[] nanos) {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("no timings");
        }
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        double median = sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2.0;
        return new Spread(median / 1000.0, sorted[0] / 1000.0, sorted[sorted.length - 1] / 1000.0);
    }
}
