package io.jrxe.tools.analyze;

import java.util.Arrays;

/**
 * Points (time, value) for a graph, in bounded memory: time is cut into equal slices, at most {@code buckets} of
 * them, and each slice keeps its lowest and highest point. The slices are made as points come (a series that gets
 * none costs nothing); once there are {@code buckets} of them and the points outrun them, they double in length
 * and pairs merge, so a capture of any length ends with at most twice {@code buckets} points that keep the
 * picture's envelope (every dip and every peak).
 */
final class PointSeries {
    private static final int FIRST_BUCKETS = 32;
    private static final long FIRST_WIDTH = 1_000;

    private final int buckets;
    private long[] lowTime;
    private long[] lowValue;
    private long[] highTime;
    private long[] highValue;
    private boolean[] used;
    private long origin = Long.MIN_VALUE;
    private long width = FIRST_WIDTH;
    private long added;

    PointSeries(int buckets) {
        this.buckets = buckets;
    }

    void add(long time, long value) {
        if (origin == Long.MIN_VALUE) {
            origin = time;
            allocate(Math.min(FIRST_BUCKETS, buckets));
        }
        long offset = Math.max(0, time - origin);
        while (offset / width >= used.length) {
            if (used.length < buckets) {
                allocate(Math.min(used.length * 2, buckets));
            } else {
                coarsen();
            }
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

    private void allocate(int n) {
        lowTime = lowTime == null ? new long[n] : Arrays.copyOf(lowTime, n);
        lowValue = lowValue == null ? new long[n] : Arrays.copyOf(lowValue, n);
        highTime = highTime == null ? new long[n] : Arrays.copyOf(highTime, n);
        highValue = highValue == null ? new long[n] : Arrays.copyOf(highValue, n);
        used = used == null ? new boolean[n] : Arrays.copyOf(used, n);
    }

    private void coarsen() {
        int n = used.length;
        for (int j = 0; j < n / 2; j++) {
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
        Arrays.fill(used, n / 2, n, false);
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
        if (used == null) {
            return new long[][] {new long[0], new long[0]};
        }
        int n = used.length;
        long[] times = new long[2 * n];
        long[] values = new long[2 * n];
        int k = 0;
        for (int i = 0; i < n; i++) {
            if (!used[i]) {
                continue;
            }
            boolean lowFirst = lowTime[i] <= highTime[i];
            times[k] = lowFirst ? lowTime[i] : highTime[i];
            values[k++] = lowFirst ? lowValue[i] : highValue[i];
            if (lowTime[i] != highTime[i] || lowValue[i] != highValue[i]) {
                times[k] = lowFirst ? highTime[i] : lowTime[i];
                values[k++] = lowFirst ? highValue[i] : lowValue[i];
            }
        }
        return new long[][] {Arrays.copyOf(times, k), Arrays.copyOf(values, k)};
    }
}
