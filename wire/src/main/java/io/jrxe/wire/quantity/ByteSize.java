package io.jrxe.wire.quantity;

import java.util.Locale;

/**
 * A size in bytes as people write it: a plain number of bytes, or a number with a K, M, G or T
 * suffix in powers of 1024 (4K = 4096; KiB, KB and k are read the same way), and as the
 * commands print it: "2,097,152 B (2 MiB)".
 */
public final class ByteSize {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    private static final String SUFFIXES = "KMGT";

    private ByteSize() {
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} whose message says what is wrong and what is expected. */
    public static long parse(String text) {
        String t = text.strip();
        int end = t.length();
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.endsWith("ib")) {
            end -= 2;
        } else if (lower.endsWith("b")) {
            end -= 1;
        }
        int shift = 0;
        if (end > 0) {
            int unit = SUFFIXES.indexOf(Character.toUpperCase(t.charAt(end - 1)));
            if (unit >= 0) {
                shift = 10 * (unit + 1);
                end--;
            }
        }
        String digits = t.substring(0, end);
        if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("'" + text + "' is not a size: write bytes as a whole number, "
                    + "with K, M, G or T for powers of 1024 (e.g. 4K, 1G)");
        }
        try {
            long number = Long.parseLong(digits);
            if (shift > 0 && number > Long.MAX_VALUE >> shift) {
                throw new NumberFormatException();
            }
            return number << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is too large (more than 8 EiB)");
        }
    }

    /** "262,144": a count with thousands separators. */
    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** The shortest exact name of a size: "4 KiB", "1 GiB", "8 B"; "1,000 B" when no unit divides it. */
    public static String unit(long bytes) {
        int u = 0;
        long value = bytes;
        while (u < UNITS.length - 1 && value != 0 && value % 1024 == 0) {
            value /= 1024;
            u++;
        }
        return count(value) + " " + UNITS[u];
    }

    /** "2,097,152 B (2 MiB)", "6,000 B (5.86 KiB)", or "512 B" when bytes say it all. */
    public static String full(long bytes) {
        if (bytes < 1024) {
            return count(bytes) + " B";
        }
        String exact = unit(bytes);
        if (!exact.endsWith(" B")) {
            return count(bytes) + " B (" + exact + ")";
        }
        int u = 0;
        double value = bytes;
        while (u < UNITS.length - 1 && value >= 1024) {
            value /= 1024;
            u++;
        }
        return count(bytes) + " B (" + String.format(Locale.ROOT, "%.2f", value) + " " + UNITS[u] + ")";
    }
}
