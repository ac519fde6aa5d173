package io.jrxe.wire.header;

/** Datagram Extended Transport Header, 8 bytes: Q_Key (4), reserved (1), source QP (3). */
public final class DethFlyweight extends Flyweight<DethFlyweight> {
    public static final int LENGTH = 8;
    public static final int QKEY_OFFSET = 0;
    public static final int RESERVED_OFFSET = 4;
    public static final int SRC_QPN_OFFSET = 5;

    @Override
    public int length() {
        return LENGTH;
    }

    public int qkey() {
        return i32(QKEY_OFFSET);
    }

    public DethFlyweight qkey(int qkey) {
        i32(QKEY_OFFSET, qkey);
        return this;
    }

    public int reserved() {
        return u8(RESERVED_OFFSET);
    }

    public DethFlyweight reserved(int value) {
        u8(RESERVED_OFFSET, value);
        return this;
    }

    public int srcQpn() {
        return u24(SRC_QPN_OFFSET);
    }

    public DethFlyweight srcQpn(int qpn) {
        u24(SRC_QPN_OFFSET, qpn);
        return this;
    }

    public DethFlyweight set(int qkey, int srcQpn) {
        i32(QKEY_OFFSET, qkey);
        i32(RESERVED_OFFSET, srcQpn & 0xFFFFFF);
        return this;
    }
}
