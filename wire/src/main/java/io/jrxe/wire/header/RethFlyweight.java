package io.jrxe.wire.header;

/** RDMA Extended Transport Header, 16 bytes: virtual address (8), R_Key (4), DMA length (4). */
public final class RethFlyweight extends Flyweight<RethFlyweight> {
    public static final int LENGTH = 16;
    public static final int VA_OFFSET = 0;
    public static final int RKEY_OFFSET = 8;
    public static final int DMA_LENGTH_OFFSET = 12;

    @Override
    public int length() {
        return LENGTH;
    }

    public long virtualAddress() {
        return i64(VA_OFFSET);
    }

    public RethFlyweight virtualAddress(long va) {
        i64(VA_OFFSET, va);
        return this;
    }

    public int rkey() {
        return i32(RKEY_OFFSET);
    }

    public RethFlyweight rkey(int rkey) {
        i32(RKEY_OFFSET, rkey);
        return this;
    }

    /** DMA length, an unsigned 32-bit count of bytes (read as a long so 2^31 and up stay positive). */
    public long dmaLength() {
        return i32(DMA_LENGTH_OFFSET) & 0xFFFF_FFFFL;
    }

    public RethFlyweight dmaLength(long length) {
        i32(DMA_LENGTH_OFFSET, (int) length);
        return this;
    }

    public RethFlyweight set(long va, int rkey, long dmaLength) {
        i64(VA_OFFSET, va);
        i32(RKEY_OFFSET, rkey);
        i32(DMA_LENGTH_OFFSET, (int) dmaLength);
        return this;
    }
}
