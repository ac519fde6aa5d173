package io.jrxe.wire.stats;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Every counter of one NIC by name, whichever part keeps it: the device's (rxe's hw_counters and
 * jrxe's drops), QP1's, the port's transmit failures, congestion control's. Each part counts on its
 * own thread in its own single-writer slots and registers a reader here once; JMX, {@code jrxe stat},
 * {@code devinfo -v}, {@code --counters} and the verbs {@code Context.counters()} all read the same
 * snapshot, so a counter shown in one place is shown in all of them.
 */
public final class CounterRegistry {
    private final Map<String, LongSupplier> readers = new LinkedHashMap<>();

    /**
     * Adds a counter; its name is how every reader shows it (rxe's names for rxe's counters, a
     * {@code jrxe_} prefix for jrxe's own).
     *
     * @throws IllegalArgumentException when the name is taken: two parts may not count under one name
     */
    public synchronized void register(String name, LongSupplier value) {
        if (readers.putIfAbsent(name, value) != null) {
            throw new IllegalArgumentException("a counter named " + name + " is registered already");
        }
    }

    /** Every counter's value now, in the order they were registered. */
    public synchronized Map<String, Long> snapshot() {
        Map<String, Long> values = new LinkedHashMap<>();
        readers.forEach((name, reader) -> values.put(name, reader.getAsLong()));
        return values;
    }

    /** One counter's value now. */
    public synchronized long get(String name) {
        LongSupplier reader = readers.get(name);
        if (reader == null) {
            throw new IllegalArgumentException("no counter named " + name);
        }
        return reader.getAsLong();
    }

    public synchronized boolean has(String name) {
        return readers.containsKey(name);
    }
}
