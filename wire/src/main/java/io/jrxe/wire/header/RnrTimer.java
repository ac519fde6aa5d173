package io.jrxe.wire.header;

/**
 * The RNR NAK timer codes (IBTA 9.7.5.2.8, table 45): how long a requester waits before it
 * retries after a receiver-not-ready NAK. Code 0 is the longest, 655.36 ms. Note: Linux's
 * table has 61410 us at code 25 where the spec says 61.44 ms; this table follows the spec.
 */
public final class RnrTimer {
    private static final long[] MICROS = {
        655_360, 10, 20, 30, 40, 60, 80, 120,
        160, 240, 320, 480, 640, 960, 1_280, 1_920,
        2_560, 3_840, 5_120, 7_680, 10_240, 15_360, 20_480, 30_720,
        40_960, 61_440, 81_920, 122_880, 163_840, 245_760, 327_680, 491_520,
    };

    private RnrTimer() {
    }

    public static long micros(int code) {
        return MICROS[checkCode(code)];
    }

    public static long nanos(int code) {
        return MICROS[checkCode(code)] * 1_000L;
    }

    /** The smallest code whose delay is at least the given one (code 0, the longest, when none is). */
    public static int codeFor(long micros) {
        int best = 0;
        for (int code = 1; code < MICROS.length; code++) {
            if (MICROS[code] >= micros && (best == 0 || MICROS[code] < MICROS[best])) {
                best = code;
            }
        }
        return best;
    }

    public static String describe(int code) {
        long us = micros(code);
        return us % 1000 == 0 ? us / 1000 + " ms" : (us / 1000.0) + " ms";
    }

    private static int checkCode(int code) {
        if (code < 0 || code > 31) {
            throw new IllegalArgumentException("RNR timer code " + code + " is out of range 0..31");
        }
        return code;
    }
}
