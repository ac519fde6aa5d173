package io.jrxe.wire.header;

/** Immediate Data, 4 bytes, delivered to the receiver's completion as is (network order). */
public final class ImmDtFlyweight extends Flyweight<ImmDtFlyweight> {
    public static final int LENGTH = 4;

    @Override
    public int length() {
        return LENGTH;
    }

    public int immediate() {
        return i32(0);
    }

    public ImmDtFlyweight immediate(int value) {
        i32(0, value);
        return this;
    }
}
