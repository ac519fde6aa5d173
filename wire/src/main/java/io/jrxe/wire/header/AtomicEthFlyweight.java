package io.jrxe.wire.header;

/** Atomic Extended Transport Header, 28 bytes: VA (8), R_Key (4), swap or add data (8), compare data (8). */
public final class AtomicEthFlyweight extends Flyweight<AtomicEthFlyweight> {
    public static final int LENGTH = 28;
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int SWAP_ADD_OFFSET = 12;
    public static final int COMPARE_OFFSET = 20;

    @Override
    public int length() {
        return LENGTH;
    }

    public long virtualAddress() {
        return i64(VA_OFFSET);
    }

    public AtomicEthFlyweight virtualAddress(long va) {
        i64(VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return i32(RKEY_OFFSET);
    }

    public AtomicEthFlyweight rkey(int rkey) {
        i32(RKEY_OFFSET, rkey);
        return this;
    }

    public long swapAdd() {
        return i64(SWAP_ADD_OFFSET);
    }

    public AtomicEthFlyweight swapAdd(long value) {
        i64(SWAP_ADD_OFFSET, value);
        return this;
    }

    public long compare() {
        return i64(COMPARE_OFFSET);
    }

    public AtomicEthFlyweight compare(long value) {
        i64(COMPARE_OFFSET, value);
        return this;
    }

    public AtomicEthFlyweight set(long va, int rkey, long swapAdd, long compare) {
        i64(VA_OFFSET, va);
        i32(RKEY_OFFSET, rkey);
        i64(SWAP_ADD_OFFSET, swapAdd);
        i64(COMPARE_OFFSET, compare);
        return this;
    }
}
