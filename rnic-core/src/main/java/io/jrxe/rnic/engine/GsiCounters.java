package io.jrxe.rnic.engine;

import io.jrxe.wire.stats.CounterRegistry;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * QP1's own counters: MADs received (passed to an agent), sent, and dropped by reason. Only the
 * NIC thread increments them (single-writer opaque stores, as the device's counters); anyone may
 * read them.
 */
public final class GsiCounters {
    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int RECEIVED = 0;
    private static final int SENT = 1;
    private static final int FIRST_DROP = 2;
    private final long[] values = new long[FIRST_DROP + MadDropReason.values().length];

    void countReceived() {
        add(RECEIVED);
    }

    void countSent() {
        add(SENT);
    }

    void countDropped(MadDropReason reason) {
        add(FIRST_DROP + reason.ordinal());
    }

    private void add(int i) {
        SLOTS.setOpaque(values, i, (long) SLOTS.getOpaque(values, i) + 1);
    }

    private long get(int i) {
        return (long) SLOTS.getOpaque(values, i);
    }

    public long received() {
        return get(RECEIVED);
    }

    public long sent() {
        return get(SENT);
    }

    public long dropped(MadDropReason reason) {
        return get(FIRST_DROP + reason.ordinal());
    }

    /** Every drop, whatever its reason. */
    public long droppedTotal() {
        long sum = 0;
        for (MadDropReason r : MadDropReason.values()) {
            sum += dropped(r);
        }
        return sum;
    }

    /** Registers every counter under its name, so that every reader of the NIC's counters sees them. */
    public void registerIn(CounterRegistry registry) {
        registry.register("jrxe_gsi_mads_received", this::received);
        registry.register("jrxe_gsi_mads_sent", this::sent);
        for (MadDropReason r : MadDropReason.values()) {
            registry.register(r.label(), () -> dropped(r));
        }
    }
}
