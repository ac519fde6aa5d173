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

    public ScatterGatherList(int maxSge) {
        addr = new long[maxSge];
        length = new int[maxSge];
        lkey = new int[maxSge];
    }

    public int capacity() {
        return addr.length;
    }

    public int count() {
        return count;
    }

    public long addr(int i) {
        return addr[i];
    }

    /** Length as an unsigned 32-bit count. */
    public long length(int i) {
        return length[i] & 0xFFFF_FFFFL;
    }

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

    public void clear() {
        count = 0;
    }

    public void add(long address, int len, int key) {
        addr[count] = address;
        length[count] = len;
        lkey[count] = key;
        count++;
    }

    public void copyFrom(ScatterGatherList other) {
        count = other.count;
        System.arraycopy(other.addr, 0, addr, 0, count);
        System.arraycopy(other.length, 0, length, 0, count);
        System.arraycopy(other.lkey, 0, lkey, 0, count);
    }
}
