package io.jrxe.rnic.memory;

import io.jrxe.rnic.RnicException;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The MTT: the NIC's memory translation table, one 8-byte entry per registered page holding
 * that page's address. Its capacity is a device attribute (a real NIC has a fixed amount of
 * memory for it); a registration takes a contiguous run of entries, so the table can also
 * fragment, and the error says so. Storage is allocated in chunks as entries are first used.
 */
public final class TranslationTable implements PageEntries {
    public static final int ENTRY_BYTES = 8;
    private static final int CHUNK_SHIFT = 16;
    private static final int CHUNK_MASK = (1 << CHUNK_SHIFT) - 1;

    private final long capacity;
    private final long[][] chunks;
    /** Free runs: start entry -> number of entries. */
    private final TreeMap<Long, Long> free = new TreeMap<>();
    private long freeEntries;

    public TranslationTable(long capacityEntries) {
        if (capacityEntries <= 0 || capacityEntries > (1L << 40)) {
            throw new IllegalArgumentException("MTT capacity " + capacityEntries + " entries is out of range 1..2^40");
        }
        this.capacity = capacityEntries;
        this.chunks = new long[(int) ((capacityEntries + CHUNK_MASK) >>> CHUNK_SHIFT)][];
        free.put(0L, capacityEntries);
        freeEntries = capacityEntries;
    }

    public long capacity() {
        return capacity;
    }

    public long freeEntries() {
        return freeEntries;
    }

    public long usedEntries() {
        return capacity - freeEntries;
    }

    public long largestFreeRun() {
        long largest = 0;
        for (long run : free.values()) {
            largest = Math.max(largest, run);
        }
        return largest;
    }

    /** Takes a contiguous run of n entries (first fit) and returns its first entry. */
    public long allocate(long n, String what) throws RnicException {
        for (Map.Entry<Long, Long> run : free.entrySet()) {
            if (run.getValue() >= n) {
                long start = run.getKey();
                free.remove(start);
                if (run.getValue() > n) {
                    free.put(start + n, run.getValue() - n);
                }
                freeEntries -= n;
                return start;
            }
        }
        String why = n > freeEntries
                ? String.format(Locale.ROOT, "%s needs %,d MTT entries, but only %,d of %,d are free (%s of translation memory)",
                        what, n, freeEntries, capacity, bytes(capacity * ENTRY_BYTES))
                : String.format(Locale.ROOT, "%s needs %,d contiguous MTT entries; %,d are free but the largest free run is %,d",
                        what, n, freeEntries, largestFreeRun());
        throw RnicException.exhausted(why);
    }

    /** Gives a run back, merging it with its free neighbours. */
    public void release(long start, long n) {
        long s = start;
        long len = n;
        Map.Entry<Long, Long> before = free.floorEntry(start);
        if (before != null && before.getKey() + before.getValue() == start) {
            s = before.getKey();
            len += before.getValue();
            free.remove(before.getKey());
        }
        Long afterLength = free.remove(start + n);
        if (afterLength != null) {
            len += afterLength;
        }
        free.put(s, len);
        freeEntries += n;
    }

    @Override
    public long get(long entry) {
        long[] chunk = chunks[(int) (entry >>> CHUNK_SHIFT)];
        return chunk == null ? 0 : chunk[(int) (entry & CHUNK_MASK)];
    }

    @Override
    public void set(long entry, long pageAddress) {
        int c = (int) (entry >>> CHUNK_SHIFT);
        long[] chunk = chunks[c];
        if (chunk == null) {
            chunk = new long[1 << CHUNK_SHIFT];
            chunks[c] = chunk;
        }
        chunk[(int) (entry & CHUNK_MASK)] = pageAddress;
    }

    /** Empties a run of entries (no page in any), without making storage for chunks never used. */
    public void clear(long start, long n) {
        long entry = start;
        long end = start + n;
        while (entry < end) {
            long[] chunk = chunks[(int) (entry >>> CHUNK_SHIFT)];
            long chunkEnd = Math.min(end, ((entry >>> CHUNK_SHIFT) + 1) << CHUNK_SHIFT);
            if (chunk != null) {
                java.util.Arrays.fill(chunk, (int) (entry & CHUNK_MASK), (int) (entry & CHUNK_MASK) + (int) (chunkEnd - entry), 0L);
            }
            entry = chunkEnd;
        }
    }

    static String bytes(long n) {
        if (n >= 1L << 30 && n % (1L << 30) == 0) {
            return (n >> 30) + " GiB";
        }
        if (n >= 1L << 20 && n % (1L << 20) == 0) {
            return (n >> 20) + " MiB";
        }
        if (n >= 1L << 10 && n % (1L << 10) == 0) {
            return (n >> 10) + " KiB";
        }
        return n + " bytes";
    }
}
