package io.jrxe.verbs;

import java.util.Arrays;

/**
 * A work request's scatter/gather list (ibv_sge array): addresses, lengths and L_Keys in
 * parallel arrays sized for the queue's maximum, reused for every work request in its slot.
 */
public final class ScatterGatherList {
    private long[] addr;
    private int[] length;
    private int[] lkey;
    private int count;

    /** A list with room for {@code maxSge} entries. */
    public ScatterGatherList(int maxSge) {
        addr = new long[maxSge];
        length = new int[maxSge];
        lkey = new int[maxSge];
    }

    /** How many entries fit without the list growing. */
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

    /**
     * Appends an entry: {@code len} bytes at {@code address} of the region whose L_Key is {@code key}. A list that is
     * full grows (once, allocating): post_send and post_recv then refuse a list longer than the QP's max_send_sge or
     * max_recv_sge with the rule and the numbers, as ibv_post_send does.
     */
    public void add(long address, int len, int key) {
        if (count == addr.length) {
            grow(Math.max(1, addr.length * 2));
        }
        addr[count] = address;
        length[count] = len;
        lkey[count] = key;
        count++;
    }

    private void grow(int entries) {
        addr = Arrays.copyOf(addr, entries);
        length = Arrays.copyOf(length, entries);
        lkey = Arrays.copyOf(lkey, entries);
    }

    /** Makes this list's entries those of {@code other}. */
    public void copyFrom(ScatterGatherList other) {
        if (other.count > addr.length) {
            grow(other.count);
        }
        count = other.count;
        System.arraycopy(other.addr, 0, addr, 0, count);
        System.arraycopy(other.length, 0, length, 0, count);
        System.arraycopy(other.lkey, 0, lkey, 0, count);
    }
}
