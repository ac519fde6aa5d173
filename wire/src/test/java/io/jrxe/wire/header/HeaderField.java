package io.jrxe.wire.header;

import java.util.function.ObjLongConsumer;
import java.util.function.ToLongFunction;

/**
 * One field of a header as the spec places it ({@code bitOffset}, {@code width}, counted as in
 * {@link HeaderBits}) together with the flyweight's accessors for it. The getter returns the
 * field's value as the spec means it: unsigned fields must come back non-negative as they
 * are, and only fields that are plain 32- or 64-bit words may be masked by the getter.
 * {@code setter} is null for a field the flyweight only reads.
 */
public record HeaderField<F extends Flyweight<F>>(String name, int bitOffset, int width,
                                           ToLongFunction<F> getter, ObjLongConsumer<F> setter) {

    public static <F extends Flyweight<F>> HeaderField<F> field(String name, int bitOffset, int width,
                                                         ToLongFunction<F> getter, ObjLongConsumer<F> setter) {
        return new HeaderField<>(name, bitOffset, width, getter, setter);
    }

    public static <F extends Flyweight<F>> HeaderField<F> readOnly(String name, int bitOffset, int width,
                                                            ToLongFunction<F> getter) {
        return new HeaderField<>(name, bitOffset, width, getter, null);
    }

    public long get(F flyweight) {
        return getter.applyAsLong(flyweight);
    }

    public void set(F flyweight, long value) {
        setter.accept(flyweight, value);
    }

    public long readFrom(byte[] bytes, int headerStart) {
        return HeaderBits.read(bytes, headerStart, bitOffset, width);
    }

    public void writeTo(byte[] bytes, int headerStart, long value) {
        HeaderBits.write(bytes, headerStart, bitOffset, width, value);
    }

    public long mask() {
        return HeaderBits.mask(width);
    }
}
