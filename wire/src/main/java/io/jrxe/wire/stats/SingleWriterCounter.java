package io.jrxe.wire.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.LongSupplier;

/**
 * A counter one thread increments (the NIC thread, or a port's) and any thread reads: a plain
 * increment published with an opaque store, so a reader sees a recent whole value, and no lock or
 * atomic read-modify-write is paid per packet.
 */
public final class SingleWriterCounter implements LongSupplier {
    private static final VarHandle VALUE;

    static {
        try {
            VALUE = MethodHandles.lookup().findVarHandle(SingleWriterCounter.class, "value", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through VALUE
    private long value;

    /** The writer's thread only. */
    public void increment() {
        VALUE.setOpaque(this, (long) VALUE.get(this) + 1);
    }

    /** The writer's thread only. */
    public void add(long n) {
        VALUE.setOpaque(this, (long) VALUE.get(this) + n);
    }

    @Override
    public long getAsLong() {
        return (long) VALUE.getOpaque(this);
    }
}
