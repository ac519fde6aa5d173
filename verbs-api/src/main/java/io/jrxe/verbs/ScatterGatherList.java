package io.jrxe.verbs;

import java.util.Arrays;

/**
 * A work request's scatter/gather list (ibv_sge array), sized for the queue's maximum and reused for every work
 * request in its slot. Each entry is two longs of one array, its address and then its length and L_Key, so that
 * a queue of one-SGE WQEs carries one small array per WQE rather than three.
 */
public final class ScatterGatherList {
    /** Entry i: {@code [2i]} its address, {@code [2i + 1]} its length (high 32 bits) and L_Key (low 32 bits). */
    private long[] entries;
    private int count;

    /** A list with room for {@code maxSge} entries. */
    public ScatterGatherList(int maxSge) {
        entries = new long[2 * maxSge];
    }

    /** How many entries fit without the list growing. */
    public int capacity() {
        return entries.length >> 1;
    }

    /** How many entries are set. */
    public int count() {
        return count;
    }

    /** Entry i's address (an iova of the region its key names). */
    public long addr(int i) {
        return entries[2 * i];
    }

    /** Length as an unsigned 32-bit count. */
    public long length(int i) {
        return entries[2 * i + 1] >>> 32;
    }

    /** Entry i's L_Key. */
    public int lkey(int i) {
        return (int) entries[2 * i + 1];
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

    /**
     * Appends an entry: {@code len} bytes at {@code address} of the region whose L_Key is {@code key}. A list that is
     * full grows (once, allocating): post_send and post_recv then refuse a list longer than the QP's max_send_sge or
     * max_recv_sge with the rule and the numbers, as ibv_post_send does.
     */
    public void add(long address, int len, int key) {
        if (count == capacity()) {
            grow(Math.max(1, capacity() * 2));
        }
        entries[2 * count] = address;
        entries[2 * count + 1] = ((long) len << 32) | (key & 0xFFFF_FFFFL);
        count++;
    }

    private void grow(int capacity) {
        entries = Arrays.copyOf(entries, 2 * capacity);
    }

    /** Makes this list's entries those of {@code other}. */
    public void copyFrom(ScatterGatherList other) {
        if (other.count > capacity()) {
            grow(other.count);
        }
        count = other.count;
        System.arraycopy(other.entries, 0, entries, 0, 2 * count);
    }
}
