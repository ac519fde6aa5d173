package io.jrxe.tools.common;

/** The few C printf conversions whose output Java's Formatter does not reproduce. */
public final class CFormat {
    private CFormat() {
    }

    /**
     * C's {@code %#0Nx}: "0x" and the hex digits zero-padded to N characters in all, except that zero gets no
     * "0x" (glibc prints {@code %#04x} of 0 as "0000" and of 5 as "0x05").
     */
    public static String altHex(long value, int width) {
        String digits = Long.toHexString(value);
        if (value == 0) {
            return "0".repeat(Math.max(width - 1, 0)) + "0";
        }
        int pad = width - 2 - digits.length();
        return "0x" + (pad > 0 ? "0".repeat(pad) : "") + digits;
    }
}
