package io.jrxe.wire.header;

/**
 * Flush Extended Transport Header, 4 bytes (IBTA annex A19): bits 5..4 the selectivity level
 * (0: the memory region range, 1: the whole memory region), bits 3..0 the placement type
 * (bit 0: global visibility, bit 1: persistence); the remaining bits are reserved.
 */
public final class FethFlyweight extends Flyweight<FethFlyweight> {
    public static final int LENGTH = 4;
    public static final int PLACEMENT_GLOBAL_VISIBILITY = 0x1;
    public static final int PLACEMENT_PERSISTENCE = 0x2;
    public static final int SELECTIVITY_RANGE = 0;
    public static final int SELECTIVITY_WHOLE_REGION = 1;

    @Override
    public int length() {
        return LENGTH;
    }

    public int bits() {
        return i32(0);
    }

    public FethFlyweight bits(int bits) {
        i32(0, bits);
        return this;
    }

    public int selectivityLevel() {
        return (i32(0) >>> 4) & 0x3;
    }

    public int placementType() {
        return i32(0) & 0xF;
    }

    public FethFlyweight set(int selectivityLevel, int placementType) {
        i32(0, (selectivityLevel & 0x3) << 4 | (placementType & 0xF));
        return this;
    }
}
