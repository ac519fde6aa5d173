package io.jrxe.tools.perftest;

import java.util.Arrays;

/**
 * perftest's latency row from the times between posts (print_report_lat): the differences are sorted, the
 * two largest dropped, and min, max (the first one dropped), median, mean, standard deviation and the 99% and
 * 99.9% points reported in microseconds, divided by 2 for tests whose every round trip is two messages.
 */
record LatencyStats(long size, long iters, double min, double max, double typical, double avg, double stdev, double p99,
                    double p999, double[] sortedMicros) {
    private static final int TAIL = 2;

    /** @param postedNanos the time of each post (iters of them) */
    static LatencyStats of(long size, long[] postedNanos, int iters, int rttFactor) {
        int measured = iters - 1;
        double[] delta = new double[measured];
        for (int i = 0; i < measured; i++) {
            delta[i] = (postedNanos[i + 1] - postedNanos[i]) / 1000.0 / rttFactor;
        }
        Arrays.sort(delta);
        int kept = measured - TAIL;
        double median = (kept - 1) % 2 != 0 ? (delta[kept / 2] + delta[kept / 2 - 1]) / 2 : delta[kept / 2];
        double sum = 0;
        for (int i = 0; i < kept; i++) {
            sum += delta[i];
        }
        double avg = sum / kept;
        double var = 0;
        for (int i = 0; i < kept; i++) {
            var += (avg - delta[i]) * (avg - delta[i]);
        }
        int i99 = (int) Math.ceil(kept * 0.99);
        int i999 = (int) Math.ceil(kept * 0.999);
        return new LatencyStats(size, iters, delta[0], delta[kept], median, avg, Math.sqrt(var / kept),
                delta[Math.min(i99, measured - 1)], delta[Math.min(i999, measured - 1)], delta);
    }

    /** Unsorted differences for --report-unsorted. */
    static double[] unsorted(long[] postedNanos, int iters, int rttFactor) {
        double[] delta = new double[iters - 1];
        for (int i = 0; i < iters - 1; i++) {
            delta[i] = (postedNanos[i + 1] - postedNanos[i]) / 1000.0 / rttFactor;
        }
        return delta;
    }
}
