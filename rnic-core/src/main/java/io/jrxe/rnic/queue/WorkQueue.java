package io.jrxe.rnic.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.IntFunction;

/**
 * A ring of work queue entries shared by the application (which posts) and the NIC thread (which
 * consumes), like a hardware send or receive queue. The two sides meet only at the producer and
 * consumer counters (release/acquire); posters serialise among themselves on a producer lock that
 * the NIC thread never takes.
 * <p>
 * An entry object is made the first time its slot is claimed, and a slot claimed into an empty
 * queue takes the previous slot's object instead, since the consumer is done with every entry
 * then. A QP that posts one work request at a time so keeps one entry object, not a ring of them,
 * and a queue never holds more than its capacity: no allocation per work request once a queue has
 * made what its traffic needs. The consumer must not read an entry after {@link #remove()} gave
 * its slot back.
 */
public final class WorkQueue<E> {
    private static final VarHandle PRODUCED;
    private static final VarHandle CONSUMED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PRODUCED = lookup.findVarHandle(WorkQueue.class, "produced", long.class);
            CONSUMED = lookup.findVarHandle(WorkQueue.class, "consumed", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final E[] slots;
    private final int capacity;
    private final IntFunction<E> factory;
    private final Object producerLock = new Object();
    @SuppressWarnings("unused") // through PRODUCED
    private volatile long produced;
    @SuppressWarnings("unused") // through CONSUMED
    private volatile long consumed;
    private long claimed;

    @SuppressWarnings("unchecked")
    public WorkQueue(int capacity, IntFunction<E> factory) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a work queue needs at least 1 entry");
        }
        this.capacity = capacity;
        this.slots = (E[]) new Object[capacity];
        this.factory = factory;
    }

    public int capacity() {
        return capacity;
    }

    /** Entries posted and not yet consumed. */
    public int depth() {
        return (int) ((long) PRODUCED.getAcquire(this) - (long) CONSUMED.getAcquire(this));
    }

    /** Entries ever published: the producer index a doorbell carries. */
    public long produced() {
        return (long) PRODUCED.getAcquire(this);
    }

    public Object producerLock() {
        return producerLock;
    }

    /**
     * Producer side, holding {@link #producerLock()}: the next free slot to fill, or null when
     * the queue is full. Fill it, then {@link #publish()}.
     */
    public E claim() {
        long next = claimed;
        long consumed = (long) CONSUMED.getAcquire(this);
        if (next - consumed >= capacity) {
            return null;
        }
        claimed = next + 1;
        int slot = (int) (next % capacity);
        E entry = slots[slot];
        if (entry == null) {
            entry = next == consumed ? takeFromPrevious(slot) : null;
            if (entry == null) {
                entry = factory.apply(slot);
            }
            slots[slot] = entry;   // published by publish()'s release, as the entry's contents are
        }
        return entry;
    }

    /** The previous slot's entry, moved out of it: the queue is empty, so the consumer is done with it. */
    private E takeFromPrevious(int slot) {
        int previous = slot == 0 ? capacity - 1 : slot - 1;
        E entry = slots[previous];
        slots[previous] = null;
        return entry;
    }

    /** Entry objects the queue has made and holds (at most its capacity). */
    public int entriesMade() {
        int made = 0;
        for (E slot : slots) {
            if (slot != null) {
                made++;
            }
        }
        return made;
    }

    /** Producer side: makes every claimed entry visible to the consumer. */
    public void publish() {
        PRODUCED.setRelease(this, claimed);
    }

    /** Producer side: forgets the entries claimed since the last publish (a chain with a bad WR). */
    public void abandonClaims() {
        claimed = (long) PRODUCED.getOpaque(this);
    }

    /** Consumer side (NIC thread): the oldest posted entry, not yet removed, or null. */
    public E peek() {
        long c = (long) CONSUMED.getOpaque(this);
        if (c >= (long) PRODUCED.getAcquire(this)) {
            return null;
        }
        return slots[(int) (c % capacity)];
    }

    /** Consumer side: the posted entry {@code ahead} places after the oldest, or null. */
    public E peek(int ahead) {
        long c = (long) CONSUMED.getOpaque(this) + ahead;
        if (c >= (long) PRODUCED.getAcquire(this)) {
            return null;
        }
        return slots[(int) (c % capacity)];
    }

    /** Consumer side: the absolute index of the oldest entry not yet removed (entries are numbered from 0 as posted). */
    public long consumed() {
        return (long) CONSUMED.getOpaque(this);
    }

    /**
     * Consumer side: the posted entry at absolute index {@code index}, or null when it is not posted
     * yet. The index must not be below {@link #consumed()}.
     */
    public E at(long index) {
        if (index >= (long) PRODUCED.getAcquire(this)) {
            return null;
        }
        return slots[(int) (index % capacity)];
    }

    /** Consumer side: gives the oldest entry's slot back to the producers. */
    public void remove() {
        CONSUMED.setRelease(this, (long) CONSUMED.getOpaque(this) + 1);
    }

    /** Drops everything (QP reset; NIC thread, with posters excluded by the QP state). */
    public void clear() {
        synchronized (producerLock) {
            long p = (long) PRODUCED.getAcquire(this);
            claimed = p;
            CONSUMED.setRelease(this, p);
        }
    }
}
