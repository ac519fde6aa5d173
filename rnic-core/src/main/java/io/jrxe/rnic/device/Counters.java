package io.jrxe.rnic.device;

import io.jrxe.wire.stats.CounterRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The device's counter values. Only the NIC thread increments them (plain single-writer
 * increments published with opaque stores); anyone may read them at any time and sees a
 * recent value. No lock, no allocation.
 */
public final class Counters {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private final long[] values = new long[Counter.values().length];

    public void increment(Counter c) {
        add(c, 1);
    }

    public void add(Counter c, long n) {
        int i = c.ordinal();
        SLOTS.setOpaque(values, i, (long) SLOTS.getOpaque(values, i) + n);
    }

    public long get(Counter c) {
        return (long) SLOTS.getOpaque(values, c.ordinal());
    }

    /** Registers every counter under its label, so that every reader of the NIC's counters sees them. */
    public void registerIn(CounterRegistry registry) {
        for (Counter c : Counter.values()) {
            registry.register(c.label(), () -> get(c));
        }
    }
}
