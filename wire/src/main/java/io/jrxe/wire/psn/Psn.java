package io.jrxe.wire.psn;

/**
 * Packet sequence numbers: 24-bit counters that wrap. Comparisons use the serial-number rule
 * (the IBTA's "half the PSN space" window): a is before b when b - a, taken modulo 2^24, is
 * between 1 and 2^23. At exactly 2^23 apart each is before the other, as with Linux's
 * psn_compare: {@link #compare} is not antisymmetric there.
 */
public final class Psn {
    public static final int BITS = 24;
    public static final int MASK = 0xFFFFFF;
    public static final int MODULUS = 1 << BITS;
    /** Half the PSN space: the largest distance at which order is still defined. */
    public static final int HALF = 1 << (BITS - 1);

    private Psn() {
    }

    public static int of(int value) {
        return value & MASK;
    }

    public static int add(int psn, int n) {
        return (psn + n) & MASK;
    }

    public static int next(int psn) {
        return (psn + 1) & MASK;
    }

    /** Signed distance from a to b in -2^23 .. 2^23-1: positive when b is after a. */
    public static int diff(int b, int a) {
        return ((b - a) << (32 - BITS)) >> (32 - BITS);
    }

    /** Like Comparator: negative when a is before b, zero when equal, positive when after. */
    public static int compare(int a, int b) {
        return diff(a, b);
    }

    public static boolean before(int a, int b) {
        return diff(a, b) < 0;
    }

    public static boolean after(int a, int b) {
        return diff(a, b) > 0;
    }

    /** Forward distance from a to b, 0 .. 2^24-1 (how many increments take a to b). */
    public static int distance(int a, int b) {
        return (b - a) & MASK;
    }

    /** True when psn lies in the window of size PSNs that starts at start (start included). */
    public static boolean inWindow(int psn, int start, int size) {
        return distance(start, psn) < size;
    }

    public static String format(int psn) {
        return String.format("0x%06x", psn & MASK);
    }
}
