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
    private static final VarHandle INDEXES = MethodHandles.arrayElementVarHandle(long[].class);
    /*
     * The indexes live in one array, each side's on a cache line of its own (8 longs of padding before, between and
     * after): a poster writes its line on every post and the NIC thread its own on every entry it consumes, and
     * neither write evicts what the other side reads. Each side keeps the last index it read of the other and reads it
     * again only when the one it keeps says the ring is full (poster) or drained (NIC), as Agrona's rings do.
     */
    /** Entries published: written by posters (release), read by the NIC (acquire). */
    private static final int PRODUCED = 8;
    /** Entries claimed by posters, published or not (posters only, under the producer lock). */
    private static final int CLAIMED = 9;
    /** What posters last read of {@link #CONSUMED}: at most the real value. */
    private static final int CONSUMED_SEEN = 10;
    /** Entries the NIC is done with: written by the NIC (release), read by posters (acquire). */
    private static final int CONSUMED = 19;
    /** What the NIC last read of {@link #PRODUCED}: at most the real value. */
    private static final int PRODUCED_SEEN = 20;
    private static final int INDEX_SLOTS = 29;

    private final long[] indexes = new long[INDEX_SLOTS];
    private final E[] slots;
    private final int capacity;
    private final IntFunction<E> factory;
    private final Object producerLock = new Object();

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
        return (int) ((long) INDEXES.getAcquire(indexes, PRODUCED) - (long) INDEXES.getAcquire(indexes, CONSUMED));
    }

    /** Entries ever published: the producer index a doorbell carries. */
    public long produced() {
        return (long) INDEXES.getAcquire(indexes, PRODUCED);
    }

    public Object producerLock() {
        return producerLock;
    }

    /**
     * Producer side, holding {@link #producerLock()}: the next free slot to fill, or null when
     * the queue is full. Fill it, then {@link #publish()}.
     */
    public E claim() {
        long[] x = indexes;
        long next = x[CLAIMED];
        if (next - x[CONSUMED_SEEN] >= capacity) {
            x[CONSUMED_SEEN] = (long) INDEXES.getAcquire(x, CONSUMED);
            if (next - x[CONSUMED_SEEN] >= capacity) {
                return null;
            }
        }
        x[CLAIMED] = next + 1;
        int slot = (int) (next % capacity);
        E entry = slots[slot];
        if (entry == null) {
            entry = next == (long) INDEXES.getAcquire(x, CONSUMED) ? takeFromPrevious(slot) : null;
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
        INDEXES.setRelease(indexes, PRODUCED, indexes[CLAIMED]);
    }

    /** Producer side: forgets the entries claimed since the last publish (a chain with a bad WR). */
    public void abandonClaims() {
        indexes[CLAIMED] = (long) INDEXES.getOpaque(indexes, PRODUCED);
    }

    /** Consumer side (NIC thread): the oldest posted entry, not yet removed, or null. */
    public E peek() {
        return at(indexes[CONSUMED]);
    }

    /** Consumer side: the posted entry {@code ahead} places after the oldest, or null. */
    public E peek(int ahead) {
        return at(indexes[CONSUMED] + ahead);
    }

    /** Consumer side: the absolute index of the oldest entry not yet removed (entries are numbered from 0 as posted). */
    public long consumed() {
        return indexes[CONSUMED];
    }

    /**
     * Consumer side: the posted entry at absolute index {@code index}, or null when it is not posted
     * yet. The index must not be below {@link #consumed()}.
     */
    public E at(long index) {
        long[] x = indexes;
        if (index >= x[PRODUCED_SEEN]) {
            x[PRODUCED_SEEN] = (long) INDEXES.getAcquire(x, PRODUCED);
            if (index >= x[PRODUCED_SEEN]) {
                return null;
            }
        }
        return slots[(int) (index % capacity)];
    }

    /** Consumer side: gives the oldest entry's slot back to the producers. */
    public void remove() {
        INDEXES.setRelease(indexes, CONSUMED, indexes[CONSUMED] + 1);
    }

    /** Drops everything (QP reset; NIC thread, with posters excluded by the QP state). */
    public void clear() {
        synchronized (producerLock) {
            long[] x = indexes;
            long p = (long) INDEXES.getAcquire(x, PRODUCED);
            x[CLAIMED] = p;
            x[CONSUMED_SEEN] = p;
            x[PRODUCED_SEEN] = p;
            INDEXES.setRelease(x, CONSUMED, p);
        }
    }
}
