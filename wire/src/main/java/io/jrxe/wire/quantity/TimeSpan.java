package io.jrxe.wire.quantity;

import java.util.Locale;

/** A span of time as people write it: a number with ns, us (or µs), ms or s; read as nanoseconds. */
public final class TimeSpan {
    private TimeSpan() {
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} whose message says what is wrong and what is expected. */
    public static long parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        long scale;
        String number;
        if (t.endsWith("ns")) {
            scale = 1;
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us") || t.endsWith("µs")) {
            scale = 1_000;
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("ms")) {
            scale = 1_000_000;
            number = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            scale = 1_000_000_000;
            number = t.substring(0, t.length() - 1);
        } else {
            throw bad(text);
        }
        double value;
        try {
            value = Double.parseDouble(number.strip());
        } catch (NumberFormatException e) {
            throw bad(text);
        }
        if (!(value >= 0) || value * scale > 3_600e9) {
            throw bad(text);
        }
        return Math.round(value * scale);
    }

    private static IllegalArgumentException bad(String text) {
        return new IllegalArgumentException("'" + text + "' is not a duration: write a number with ns, us, ms or s "
                + "(e.g. 2us, 10ms), at most an hour");
    }

    /** "1.500 µs", "10 ms", "250 ns": whole values bare, others to three decimals. */
    public static String text(long nanos) {
        if (nanos >= 1_000_000_000L) {
            return trim(nanos / 1e9) + " s";
        }
        if (nanos >= 1_000_000) {
            return trim(nanos / 1e6) + " ms";
        }
        if (nanos >= 1_000) {
            return trim(nanos / 1e3) + " µs";
        }
        return nanos + " ns";
    }

    private static String trim(double v) {
        return v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.3f", v);
    }
}
