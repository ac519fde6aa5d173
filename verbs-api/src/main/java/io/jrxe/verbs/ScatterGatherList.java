package io.jrxe.verbs;

/**
 * A work request's scatter/gather list (ibv_sge array): addresses, lengths and L_Keys in
 * parallel arrays sized for the queue's maximum, reused for every work request in its slot.
 */
public final class ScatterGatherList {
    private final long[] addr;
    private final int[] length;
    private final int[] lkey;
    private int count;

    /** A list with room for {@code maxSge} entries. */
    public ScatterGatherList(int maxSge) {
        addr = new long[maxSge];
        length = new int[maxSge];
        lkey = new int[maxSge];
    }

    /** How many entries fit. */
    public int capacity() {
        return addr.length;
    }

    /** How many entries are set. */
    public int count() {
        return count;
    }

    /** Entry i's address (an iova of the region its key names). */
    public long addr(int i) {
        return addr[i];
    }

    /** Length as an unsigned 32-bit count. */
    public long length(int i) {
        return length[i] & 0xFFFF_FFFFL;
    }

    /** Entry i's L_Key. */
    public int lkey(int i) {
        return lkey[i];
    }

    /** Sum of the lengths. */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += length(i);
        }
        return total;
    }

    /** Removes every entry. */
    public void clear() {
        count = 0;
    }

    /** Appends an entry: {@code len} bytes at {@code address} of the region whose L_Key is {@code key}. */
    public void add(long address, int len, int key) {
        addr[count] = address;
        length[count] = len;
        lkey[count] = key;
        count++;
    }

    /** Makes this list's entries those of {@code other}. */
    public void copyFrom(ScatterGatherList other) {
        count = other.count;
        System.arraycopy(other.addr, 0, addr, 0, count);
        System.arraycopy(other.length, 0, length, 0, count);
        System.arraycopy(other.lkey, 0, lkey, 0, count);
    }
}
