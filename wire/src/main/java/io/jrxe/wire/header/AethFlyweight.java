package io.jrxe.wire.header;

/**
 * ACK Extended Transport Header, 4 bytes: the syndrome (8 bits) and the MSN (24 bits).
 * {@link AethSyndrome} decodes the syndrome.
 */
public final class AethFlyweight extends Flyweight<AethFlyweight> {
    public static final int LENGTH = 4;
    public static final int SYNDROME_OFFSET = 0;
    public static final int MSN_OFFSET = 1;

    @Override
    public int length() {
        return LENGTH;
    }

    public int syndrome() {
        return u8(SYNDROME_OFFSET);
    }

    public AethFlyweight syndrome(int syndrome) {
        u8(SYNDROME_OFFSET, syndrome);
        return this;
    }

    public int msn() {
        return u24(MSN_OFFSET);
    }

    public AethFlyweight msn(int msn) {
        u24(MSN_OFFSET, msn);
        return this;
    }

    public AethFlyweight set(int syndrome, int msn) {
        i32(0, (syndrome & 0xFF) << 24 | (msn & 0xFFFFFF));
        return this;
    }
}
