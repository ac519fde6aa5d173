package io.jrxe.rnic.memory;

/**
 * The pages of one implicit MR that are present or on their way in, by page number (an address shifted right by
 * {@link MptEntry#PAGE_SHIFT}: an implicit MR's iova is 0 and every address is its own, so a page's number is its MTT
 * index). An implicit MR reaches the whole address space, so it cannot have a run of MTT entries as an MR with a
 * range does: it keeps the pages it has seen and nothing else, and a page not here is not present.
 *
 * <p>Open addressing with linear probing over primitive arrays, so that a lookup on the data path neither boxes a
 * page number nor allocates; the arrays double when half full, and a removal shifts the rest of its cluster back
 * instead of leaving a tombstone. NIC thread only.
 */
final class ImplicitPageTable implements PageEntries {
    /** A free slot. Never a page number: those are addresses shifted right, below 2^52. */
    private static final long FREE = -1;
    private static final byte ARRIVING = 1;
    private static final byte PRESENT = 2;
    private static final int INITIAL_SLOTS = 64;

    private long[] pages = freeSlots(INITIAL_SLOTS);
    private byte[] states = new byte[INITIAL_SLOTS];
    private int size;

    @Override
    public long get(long page) {
        int slot = slotOf(page);
        if (pages[slot] == FREE) {
            return OnDemandPaging.NOT_PRESENT;
        }
        return states[slot] == PRESENT ? page << MptEntry.PAGE_SHIFT : OnDemandPaging.BRINGING_IN;
    }

    @Override
    public void set(long page, long entry) {
        if (entry == OnDemandPaging.NOT_PRESENT) {
            remove(page);
            return;
        }
        byte state = entry == OnDemandPaging.BRINGING_IN ? ARRIVING : PRESENT;
        int slot = slotOf(page);
        if (pages[slot] != FREE) {
            states[slot] = state;
            return;
        }
        if ((size + 1) * 2 > pages.length) {
            grow();
            slot = slotOf(page);
        }
        pages[slot] = page;
        states[slot] = state;
        size++;
    }

    /** How many pages are present or on their way in. */
    int size() {
        return size;
    }

    /**
     * Forgets pages {@code first} to {@code last}, present or on their way in (an invalidation, or a segment
     * unmapped). A range wider than the table is swept slot by slot, so a large unmapped segment costs what the
     * table holds, not what the segment spans.
     *
     * @return how many of them were present
     */
    long removeRange(long first, long last) {
        long present = 0;
        if (last - first < pages.length) {
            for (long page = first; page <= last; page++) {
                if (remove(page) == PRESENT) {
                    present++;
                }
            }
            return present;
        }
        long[] oldPages = pages;
        byte[] oldStates = states;
        pages = freeSlots(oldPages.length);
        states = new byte[oldPages.length];
        size = 0;
        for (int i = 0; i < oldPages.length; i++) {
            long page = oldPages[i];
            if (page == FREE) {
                continue;
            }
            if (page >= first && page <= last) {
                if (oldStates[i] == PRESENT) {
                    present++;
                }
            } else {
                insert(page, oldStates[i]);
            }
        }
        return present;
    }

    /** Removes a page; returns the state it had, 0 when it had none. */
    private byte remove(long page) {
        int slot = slotOf(page);
        if (pages[slot] == FREE) {
            return 0;
        }
        byte was = states[slot];
        int mask = pages.length - 1;
        int hole = slot;
        // Backward-shift deletion: an entry later in the cluster moves into the hole unless its home slot lies
        // cyclically after the hole and at or before the entry, where a lookup still finds it.
        for (int next = (hole + 1) & mask; pages[next] != FREE; next = (next + 1) & mask) {
            int home = home(pages[next]);
            boolean staysReachable = hole <= next ? hole < home && home <= next : hole < home || home <= next;
            if (!staysReachable) {
                pages[hole] = pages[next];
                states[hole] = states[next];
                hole = next;
            }
        }
        pages[hole] = FREE;
        states[hole] = 0;
        size--;
        return was;
    }

    /** The slot holding the page, or the free slot where it would go. */
    private int slotOf(long page) {
        int mask = pages.length - 1;
        int slot = home(page);
        while (pages[slot] != FREE && pages[slot] != page) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    private int home(long page) {
        long h = page * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & (pages.length - 1);
    }

    private void grow() {
        long[] oldPages = pages;
        byte[] oldStates = states;
        pages = freeSlots(oldPages.length * 2);
        states = new byte[oldPages.length * 2];
        size = 0;
        for (int i = 0; i < oldPages.length; i++) {
            if (oldPages[i] != FREE) {
                insert(oldPages[i], oldStates[i]);
            }
        }
    }

    /** Puts a page known to be absent into a table known to have room. */
    private void insert(long page, byte state) {
        int slot = slotOf(page);
        pages[slot] = page;
        states[slot] = state;
        size++;
    }

    private static long[] freeSlots(int n) {
        long[] slots = new long[n];
        java.util.Arrays.fill(slots, FREE);
        return slots;
    }
}
