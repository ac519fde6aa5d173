package io.jrxe.tools.analyze;

import java.util.Arrays;

/**
 * Bytes over time for a throughput graph, in bounded memory: at most {@code buckets} equal slices of time,
 * each summing the bytes that fell in it; when the capture outlasts them, slices double in length and
 * pairs merge.
 */
final class RateSeries {
    private final long[] bytes;
    private long origin = Long.MIN_VALUE;
    private long width = 1_000;
    private long total;

    RateSeries(int buckets) {
        bytes = new long[buckets];
    }

    /** Starts the slices at {@code time} (the capture's first frame), so that every series of a capture lines up. */
    void origin(long time) {
        if (origin == Long.MIN_VALUE) {
            origin = time;
        }
    }

    void add(long time, long count) {
        origin(time);
        long offset = Math.max(0, time - origin);
        while (offset / width >= bytes.length) {
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
        int last = bytes.length - 1;
        while (last >= 0 && bytes[last] == 0) {
            last--;
        }
        return Arrays.copyOf(bytes, last + 1);
    }
}
