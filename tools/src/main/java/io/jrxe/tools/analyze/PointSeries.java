package io.jrxe.tools.analyze;

import java.util.Arrays;

/**
 * Points (time, value) for a graph, in bounded memory: time is cut into at most {@code buckets} equal
 * slices and each slice keeps its lowest and highest point. When the points outrun the slices, the
 * slices double in length and pairs merge, so a capture of any length ends with at most twice
 * {@code buckets} points that keep the picture's envelope (every dip and every peak).
 */
final class PointSeries {
    private final int buckets;
    private final long[] lowTime;
    private final long[] lowValue;
    private final long[] highTime;
    private final long[] highValue;
    private final boolean[] used;
    private long origin = Long.MIN_VALUE;
    private long width = 1_000;
    private long added;

    PointSeries(int buckets) {
        this.buckets = buckets;
        lowTime = new long[buckets];
        lowValue = new long[buckets];
        highTime = new long[buckets];
        highValue = new long[buckets];
        used = new boolean[buckets];
    }

    void add(long time, long value) {
        if (origin == Long.MIN_VALUE) {
            origin = time;
        }
        long offset = Math.max(0, time - origin);
        while (offset / width >= buckets) {
            coarsen();
        }
        int i = (int) (offset / width);
        added++;
        if (!used[i]) {
            used[i] = true;
            lowTime[i] = highTime[i] = time;
            lowValue[i] = highValue[i] = value;
            return;
        }
        if (value < lowValue[i]) {
            lowValue[i] = value;
            lowTime[i] = time;
        }
        if (value >= highValue[i]) {
            highValue[i] = value;
            highTime[i] = time;
        }
    }

    private void coarsen() {
        for (int j = 0; j < buckets / 2; j++) {
            int a = 2 * j;
            int b = a + 1;
            boolean ua = used[a];
            boolean ub = used[b];
            long lt = ua ? lowTime[a] : lowTime[b];
            long lv = ua ? lowValue[a] : lowValue[b];
            long ht = ub ? highTime[b] : highTime[a];
            long hv = ub ? highValue[b] : highValue[a];
            if (ua && ub) {
                if (lowValue[b] < lv) {
                    lv = lowValue[b];
                    lt = lowTime[b];
                }
                if (highValue[a] > hv) {
                    hv = highValue[a];
                    ht = highTime[a];
                }
            }
            used[j] = ua || ub;
            lowTime[j] = lt;
            lowValue[j] = lv;
            highTime[j] = ht;
            highValue[j] = hv;
        }
        Arrays.fill(used, buckets / 2, buckets, false);
        width *= 2;
    }

    /** How many points were added, before any was merged away. */
    long added() {
        return added;
    }

    boolean isEmpty() {
        return added == 0;
    }

    /** The kept points in time order: {@code [times, values]}. */
    long[][] points() {
        long[] times = new long[2 * buckets];
        long[] values = new long[2 * buckets];
        int n = 0;
        for (int i = 0; i < buckets; i++) {
            if (!used[i]) {
                continue;
            }
            boolean lowFirst = lowTime[i] <= highTime[i];
            times[n] = lowFirst ? lowTime[i] : highTime[i];
            values[n++] = lowFirst ? lowValue[i] : highValue[i];
            if (lowTime[i] != highTime[i] || lowValue[i] != highValue[i]) {
                times[n] = lowFirst ? highTime[i] : lowTime[i];
                values[n++] = lowFirst ? highValue[i] : lowValue[i];
            }
        }
        return new long[][] {Arrays.copyOf(times, n), Arrays.copyOf(values, n)};
    }
}
