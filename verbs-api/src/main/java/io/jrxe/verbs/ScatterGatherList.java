package io.jrxe.verbs;

import java.util.Arrays;

/**
 * A work request's scatter/gather list (ibv_sge array), sized for the queue's maximum and reused for every work
 * request in its slot. The first entry is two fields of the list itself and any further ones are pairs of longs in
 * one array, so that a queue of one-SGE WQEs (the usual case, and a QP has one list per WQE) holds one small object
 * per WQE and no array.
 */
public final class ScatterGatherList {
    private static final long[] NONE = new long[0];
    /** Entry 0: its address, and its length (high 32 bits) and L_Key (low 32 bits). */
    private long addr0;
    private long lengthKey0;
    /** Entries 1 and on, as entry 0: {@code [2(i - 1)]} the address, {@code [2(i - 1) + 1]} the length and L_Key. */
    private long[] rest;
    private int count;

    /** A list with room for {@code maxSge} entries (at least one). */
    public ScatterGatherList(int maxSge) {
        rest = maxSge <= 1 ? NONE : new long[2 * (maxSge - 1)];
    }

    /** How many entries fit without the list growing. */
    public int capacity() {
        return 1 + (rest.length >> 1);
    }

    /** How many entries are set. */
    public int count() {
        return count;
    }

    /** Entry i's address (an iova of the region its key names). */
    public long addr(int i) {
        return i == 0 ? addr0 : rest[2 * i - 2];
    }

    /** Length as an unsigned 32-bit count. */
    public long length(int i) {
        return lengthKey(i) >>> 32;
    }

    /** Entry i's L_Key. */
    public int lkey(int i) {
        return (int) lengthKey(i);
    }

    private long lengthKey(int i) {
        return i == 0 ? lengthKey0 : rest[2 * i - 1];
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
        long lengthKey = ((long) len << 32) | (key & 0xFFFF_FFFFL);
        if (count == 0) {
            addr0 = address;
            lengthKey0 = lengthKey;
        } else {
            if (count == capacity()) {
                grow(capacity() * 2);
            }
            rest[2 * count - 2] = address;
            rest[2 * count - 1] = lengthKey;
        }
        count++;
    }

    private void grow(int capacity) {
        rest = Arrays.copyOf(rest, 2 * (capacity - 1));
    }

    /** Makes this list's entries those of {@code other}. */
    public void copyFrom(ScatterGatherList other) {
        if (other.count > capacity()) {
            grow(other.count);
        }
        count = other.count;
        addr0 = other.addr0;
        lengthKey0 = other.lengthKey0;
        if (count > 1) {
            System.arraycopy(other.rest, 0, rest, 0, 2 * (count - 1));
        }
    }
}
