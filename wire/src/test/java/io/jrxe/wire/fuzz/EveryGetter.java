package io.jrxe.wire.fuzz;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Calls every reading accessor of a flyweight class: the public no-argument methods that return
 * something, and the {@code getX(byte[], int)} copies. Found by reflection so that a field added
 * later is fuzzed too without anyone remembering to list it here.
 */
final class EveryGetter {
    // Flyweight plumbing, not fields of the header.
    private static final Set<String> NOT_FIELDS = Set.of("buffer", "offset", "length", "fields", "attribute",
            "hashCode", "toString", "getClass", "privateDataLength", "privateDataOffset", "fits");

    private final List<Method> numbers = new ArrayList<>();
    private final List<Method> copies = new ArrayList<>();
    private final byte[] sink = new byte[512];

    EveryGetter(Class<?> flyweight) {
        for (Method m : flyweight.getMethods()) {
            if (Modifier.isStatic(m.getModifiers()) || NOT_FIELDS.contains(m.getName())
                    || m.getDeclaringClass() == Object.class) {
                continue;
            }
            Class<?>[] params = m.getParameterTypes();
            if (params.length == 0 && m.getReturnType() != void.class) {
                numbers.add(m);
            } else if (params.length == 2 && params[0] == byte[].class && params[1] == int.class
                    && m.getName().startsWith("get")) {
                copies.add(m);
            }
        }
        if (numbers.isEmpty()) {
            throw new IllegalStateException(flyweight + " has no getters to fuzz");
        }
    }

    /** How many accessors one {@link #readAll} call makes. */
    int count() {
        return numbers.size() + copies.size();
    }

    /** Reads every field; an exception an accessor throws is rethrown as itself, not wrapped. */
    void readAll(Object flyweight) {
        try {
            for (Method m : numbers) {
                m.invoke(flyweight);
            }
            for (Method m : copies) {
                m.invoke(flyweight, sink, 0);
            }
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new IllegalStateException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }
}
