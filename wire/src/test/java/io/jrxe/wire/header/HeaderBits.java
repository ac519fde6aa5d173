package io.jrxe.wire.header;

/**
 * The reference layout the flyweights are checked against: a field is a run of bits counted
 * from the most significant bit of the header's first byte (bit 0), exactly as the IBTA
 * figures draw them. Done one bit at a time on a byte array, so that it shares no code, and
 * no shortcut, with the flyweights it judges.
 */
public final class HeaderBits {
    private HeaderBits() {
    }

    public static long mask(int width) {
        return width == 64 ? -1L : (1L << width) - 1;
    }

    public static long read(byte[] bytes, int headerStart, int bitOffset, int width) {
        long value = 0;
        for (int i = 0; i < width; i++) {
            int bit = bitOffset + i;
            int b = bytes[headerStart + bit / 8] >> (7 - bit % 8) & 1;
            value = value << 1 | b;
        }
        return value;
    }

    public static void write(byte[] bytes, int headerStart, int bitOffset, int width, long value) {
        for (int i = 0; i < width; i++) {
            int bit = bitOffset + i;
            int index = headerStart + bit / 8;
            int shift = 7 - bit % 8;
            int b = (int) (value >>> (width - 1 - i)) & 1;
            bytes[index] = (byte) (bytes[index] & ~(1 << shift) | b << shift);
        }
    }
}
