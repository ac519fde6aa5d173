package io.jrxe.wire.header;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A view of one header inside a packet buffer, read and written in place (the Aeron flyweight
 * pattern): wrap it over a buffer and an offset, then use its accessors. Nothing is copied and
 * nothing is allocated, so one instance per thread serves every packet. Buffers must be in
 * network (big-endian) order, which is every ByteBuffer's default.
 */
public abstract class Flyweight<T extends Flyweight<T>> {
    protected ByteBuffer buffer;
    protected int offset;

    @SuppressWarnings("unchecked")
    public final T wrap(ByteBuffer buffer, int offset) {
        if (buffer.order() != ByteOrder.BIG_ENDIAN) {
            throw new IllegalArgumentException("packet buffers must be big-endian (network order)");
        }
        this.buffer = buffer;
        this.offset = offset;
        return (T) this;
    }

    public final ByteBuffer buffer() {
        return buffer;
    }

    public final int offset() {
        return offset;
    }

    /** Length of this header in bytes. */
    public abstract int length();

    protected final int u8(int at) {
        return buffer.get(offset + at) & 0xFF;
    }

    protected final void u8(int at, int value) {
        buffer.put(offset + at, (byte) value);
    }

    protected final int u16(int at) {
        return buffer.getShort(offset + at) & 0xFFFF;
    }

    protected final void u16(int at, int value) {
        buffer.putShort(offset + at, (short) value);
    }

    protected final int u24(int at) {
        int i = offset + at;
        return (buffer.get(i) & 0xFF) << 16 | (buffer.getShort(i + 1) & 0xFFFF);
    }

    protected final void u24(int at, int value) {
        int i = offset + at;
        buffer.put(i, (byte) (value >>> 16));
        buffer.putShort(i + 1, (short) value);
    }

    protected final int i32(int at) {
        return buffer.getInt(offset + at);
    }

    protected final void i32(int at, int value) {
        buffer.putInt(offset + at, value);
    }

    protected final long i64(int at) {
        return buffer.getLong(offset + at);
    }

    protected final void i64(int at, long value) {
        buffer.putLong(offset + at, value);
    }
}
