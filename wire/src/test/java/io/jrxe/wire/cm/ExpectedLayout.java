package io.jrxe.wire.cm;

import io.jrxe.wire.header.Flyweight;
import io.jrxe.wire.header.FlyweightHarness;
import io.jrxe.wire.header.HeaderField;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message layout written down again, field by field, from IBTA's CM tables (the kernel's
 * include/rdma/ibta_vol1_c12.h lists the same offsets), independently of the {@link CmField}
 * constants in main: each entry names the flyweight's accessors and says where the field must
 * be. The result feeds {@link FlyweightHarness}, which checks every accessor bit by bit against
 * that placement. Accessors are found by name: {@code x()}/{@code x(int|long|boolean)} for a
 * number, {@code getX(byte[], int)}/{@code putX(byte[], int, int)} for a byte range (checked in
 * chunks of up to 8 bytes); reserved bits go through the message's own reserved {@link CmField}.
 */
final class ExpectedLayout<F extends Flyweight<F>> {
    private final Class<F> type;
    private final Supplier<F> factory;
    private final int length;
    private final List<CmField> ownFields;
    private final List<HeaderField<F>> fields = new ArrayList<>();
    private final List<String> accessors = new ArrayList<>();

    private ExpectedLayout(Class<F> type, Supplier<F> factory, int length, List<CmField> ownFields) {
        this.type = type;
        this.factory = factory;
        this.length = length;
        this.ownFields = ownFields;
    }

    static <F extends CmMessageFlyweight<F>> ExpectedLayout<F> message(Class<F> type, Supplier<F> factory) {
        return new ExpectedLayout<>(type, factory, CmMessageFlyweight.LENGTH, factory.get().fields());
    }

    static <F extends Flyweight<F>> ExpectedLayout<F> header(Class<F> type, Supplier<F> factory, int length) {
        return new ExpectedLayout<>(type, factory, length, List.of());
    }

    /** A number of {@code width} bits at bit {@code bit} (0 = most significant) of byte {@code at}. */
    ExpectedLayout<F> number(String name, int at, int bit, int width) {
        Method getter = method(name);
        Method setter = setter(name, getter.getReturnType());
        Class<?> kind = getter.getReturnType();
        fields.add(HeaderField.field(name, at * 8 + bit, width,
                f -> {
                    Object v = invoke(getter, f);
                    if (v instanceof Boolean b) {
                        return b ? 1 : 0;
                    }
                    // An int holding a 32-bit field is read unsigned, as the spec means it.
                    return v instanceof Integer i ? Integer.toUnsignedLong(i) : (Long) v;
                },
                (f, v) -> invoke(setter, f, kind == boolean.class ? (Object) ((v & 1) != 0)
                        : kind == int.class ? (Object) (int) v : (Object) v)));
        accessors.add(name);
        return this;
    }

    /** A byte range read with {@code getX(byte[], int)} and written with {@code putX(byte[], int, int)}. */
    ExpectedLayout<F> bytes(String name, int at, int byteLength) {
        return byteRange(name, at, byteLength, true);
    }

    /** A fixed-size byte range written whole with {@code putX(byte[], int)}. */
    ExpectedLayout<F> bytesWithoutLength(String name, int at, int byteLength) {
        return byteRange(name, at, byteLength, false);
    }

    private ExpectedLayout<F> byteRange(String name, int at, int byteLength, boolean putTakesLength) {
        String capitalised = Character.toUpperCase(name.charAt(0)) + name.substring(1);
        Method get = method("get" + capitalised, byte[].class, int.class);
        Method put = putTakesLength ? method("put" + capitalised, byte[].class, int.class, int.class)
                : method("put" + capitalised, byte[].class, int.class);
        for (int chunk = 0; chunk < byteLength; chunk += 8) {
            int from = chunk;
            int size = Math.min(8, byteLength - chunk);
            fields.add(HeaderField.field(name + "[" + from + ".." + (from + size) + ")", (at + from) * 8, size * 8,
                    f -> {
                        byte[] all = new byte[byteLength];
                        invoke(get, f, all, 0);
                        long v = 0;
                        for (int i = 0; i < size; i++) {
                            v = v << 8 | (all[from + i] & 0xFF);
                        }
                        return v;
                    },
                    (f, v) -> {
                        byte[] all = new byte[byteLength];
                        invoke(get, f, all, 0);
                        for (int i = size - 1; i >= 0; i--) {
                            all[from + i] = (byte) (v >>> 8 * (size - 1 - i));
                        }
                        if (putTakesLength) {
                            invoke(put, f, all, 0, byteLength);
                        } else {
                            invoke(put, f, all, 0);
                        }
                    }));
        }
        accessors.add(name);
        return this;
    }

    /** Reserved bits: the message must list a reserved field exactly there, and it must read and write them. */
    ExpectedLayout<F> reserved(int at, int bit, int width) {
        CmField field = ownFields.stream()
                .filter(f -> f.kind() == CmField.Kind.RESERVED && f.bitPosition() == at * 8 + bit)
                .findFirst()
                .orElseThrow(() -> new AssertionError(type.getSimpleName() + " has no reserved field at " + at + "." + bit));
        assertThat(field.width()).as("%s width", field).isEqualTo(width);
        fields.add(HeaderField.field(field.name(), at * 8 + bit, width,
                f -> field.get(f.buffer(), f.offset()), (f, v) -> field.set(f.buffer(), f.offset(), v)));
        return this;
    }

    FlyweightHarness<F> harness() {
        return new FlyweightHarness<>(factory, length, List.copyOf(fields));
    }

    /** The accessor names listed, in order (byte ranges once). */
    List<String> accessorNames() {
        return List.copyOf(accessors);
    }

    private Method method(String name, Class<?>... parameters) {
        try {
            return type.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(type.getSimpleName() + " has no accessor " + name, e);
        }
    }

    private Method setter(String name, Class<?> valueType) {
        return method(name, valueType);
    }

    private static Object invoke(Method method, Object target, Object... arguments) {
        try {
            return method.invoke(target, arguments);
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(e.getCause());
        }
    }
}
