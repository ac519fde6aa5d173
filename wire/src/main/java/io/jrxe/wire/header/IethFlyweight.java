package io.jrxe.wire.header;

/** Invalidate Extended Transport Header, 4 bytes: the R_Key that SEND_WITH_INVALIDATE invalidates. */
public final class IethFlyweight extends Flyweight<IethFlyweight> {
    public static final int LENGTH = 4;

    @Override
    public int length() {
        return LENGTH;
    }

    public int rkey() {
        return i32(0);
    }

    public IethFlyweight rkey(int rkey) {
        i32(0, rkey);
        return this;
    }
}
