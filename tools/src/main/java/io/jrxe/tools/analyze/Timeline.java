package io.jrxe.tools.analyze;

import java.util.Locale;

/** Times as the analysis writes them: a frame's time since the capture's first frame, and durations. */
final class Timeline {
    private long start = Long.MIN_VALUE;

    /** The first frame's time; later calls change nothing. */
    void start(long time) {
        if (start == Long.MIN_VALUE) {
            start = time;
        }
    }

    long start() {
        return start == Long.MIN_VALUE ? 0 : start;
    }

    /** Nanoseconds since the first frame. */
    long relative(long time) {
        return time - start();
    }

    /** A frame's time since the first frame, in seconds with microseconds, as Wireshark's relative time: "1.234567 s". */
    String at(long time) {
        return seconds(relative(time)) + " s";
    }

    static String seconds(long nanos) {
        return String.format(Locale.ROOT, "%.6f", nanos / 1e9);
    }

    /** A duration in the unit that suits it: "850 ns", "12.3 us", "4.56 ms", "1.23 s". */
    static String duration(long nanos) {
        double n = Math.abs(nanos);
        String sign = nanos < 0 ? "-" : "";
        if (n < 1_000) {
            return sign + (long) n + " ns";
        }
        if (n < 1_000_000) {
            return sign + three(n / 1e3) + " us";
        }
        if (n < 1_000_000_000) {
            return sign + three(n / 1e6) + " ms";
        }
        return sign + three(n / 1e9) + " s";
    }

    /** Three significant digits, or more when the integer part has them. */
    private static String three(double v) {
        if (v >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        return v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.2f", v);
    }
}
