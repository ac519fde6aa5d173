package io.jrxe.tools.analyze;

import java.util.Arrays;

/**
 * Bytes over time for a throughput graph, in bounded memory: equal slices of time from the capture's first frame,
 * at most {@code buckets} of them, each summing the bytes that fell in it. The slices are made as bytes come (a
 * series that gets none costs nothing); once there are {@code buckets} and the capture outlasts them, they double
 * in length and pairs merge.
 */
final class RateSeries {
    private static final int FIRST_BUCKETS = 32;

    private final int buckets;
    private long[] bytes;
    private long origin = Long.MIN_VALUE;
    private long width = 1_000;
    private long total;

    RateSeries(int buckets) {
        this.buckets = buckets;
    }

    /** Starts the slices at {@code time} (the capture's first frame), so that every series of a capture lines up. */
    void origin(long time) {
        if (origin == Long.MIN_VALUE) {
            origin = time;
        }
    }

    void add(long time, long count) {
        origin(time);
        if (bytes == null) {
            bytes = new long[Math.min(FIRST_BUCKETS, buckets)];
        }
        long offset = Math.max(0, time - origin);
        while (offset / width >= bytes.length) {
            if (bytes.length < buckets) {
                bytes = Arrays.copyOf(bytes, Math.min(bytes.length * 2, buckets));
                continue;
            }
            for (int j = 0; j < bytes.length / 2; j++) {
                bytes[j] = bytes[2 * j] + bytes[2 * j + 1];
            }
            Arrays.fill(bytes, bytes.length / 2, bytes.length, 0);
            width *= 2;
        }
        bytes[(int) (offset / width)] += count;
        total += count;
    }

    long total() {
        return total;
    }

    long origin() {
        return origin;
    }

    /** The length of a slice in nanoseconds. */
    long width() {
        return width;
    }

    /** Bytes per slice, up to the last slice that has any. */
    long[] slices() {
        if (bytes == null) {
            return new long[0];
        }
        int last = bytes.length - 1;
        while (last >= 0 && bytes[last] == 0) {
            last--;
        }
        return Arrays.copyOf(bytes, last + 1);
    }
}
