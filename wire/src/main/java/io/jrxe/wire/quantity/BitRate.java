package io.jrxe.wire.quantity;

import java.util.Locale;

/**
 * A rate as people write it: bits per second, with K, M, G or T in powers of 1000 (25G = 25,000,000,000 bit/s;
 * a trailing "bit/s", "bps" or "b" is allowed), and as the commands print it: "25 Gbit/s".
 */
public final class BitRate {
    private static final String SUFFIXES = "KMGT";

    private BitRate() {
    }

    /** Parses {@code text}; throws {@link IllegalArgumentException} whose message says what is wrong and what is expected. */
    public static long parse(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        for (String unit : new String[] {"bit/s", "bps", "b"}) {
            if (t.endsWith(unit)) {
                t = t.substring(0, t.length() - unit.length());
                break;
            }
        }
        long scale = 1;
        if (!t.isEmpty()) {
            int unit = SUFFIXES.indexOf(Character.toUpperCase(t.charAt(t.length() - 1)));
            if (unit >= 0) {
                scale = (long) Math.pow(1000, unit + 1);
                t = t.substring(0, t.length() - 1);
            }
        }
        try {
            double value = Double.parseDouble(t);
            long bits = Math.round(value * scale);
            if (!(value > 0) || bits <= 0 || Double.isInfinite(value) || value * scale > 1e15) {
                throw new NumberFormatException();
            }
            return bits;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a rate: write bits per second with K, M, G "
                    + "or T for powers of 1000 (e.g. 25G, 100M), above 0 and at most 1000T");
        }
    }

    /** "25 Gbit/s", "100 Mbit/s", "2.5 Gbit/s". */
    public static String text(double bitsPerSecond) {
        String[] units = {"bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        int u = 0;
        double v = bitsPerSecond;
        while (u < units.length - 1 && Math.abs(v) >= 1000) {
            v /= 1000;
            u++;
        }
        String number = v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
        return number + " " + units[u];
    }
}
