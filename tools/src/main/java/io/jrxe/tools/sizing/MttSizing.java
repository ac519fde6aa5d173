package io.jrxe.tools.sizing;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.jrxe.wire.quantity.ByteSize.count;
import static io.jrxe.wire.quantity.ByteSize.full;
import static io.jrxe.wire.quantity.ByteSize.unit;

/**
 * The memory translation table of one registered buffer: one entry per page the buffer touches,
 * and how much of the buffer a cache of entries (on a NIC, the part of the table it keeps close)
 * can translate without a miss. Each result comes with its arithmetic, for learners.
 *
 * @param cacheBytes the cache's size, or 0 for none
 */
public record MttSizing(long bufferBytes, long pageBytes, long entryBytes, long cacheBytes) {

    /** Why these inputs make no sense, or null when they do. */
    public static String problem(long bufferBytes, long pageBytes, long entryBytes, Long cacheBytes) {
        if (bufferBytes <= 0) {
            return "--buffer must be at least 1 byte";
        }
        if (pageBytes <= 0 || Long.bitCount(pageBytes) != 1) {
            return "--page must be a power of two (e.g. 4K, 64K, 2M), not " + pageBytes + " bytes";
        }
        if (entryBytes <= 0) {
            return "--entry must be at least 1 byte";
        }
        if (cacheBytes != null && cacheBytes <= 0) {
            return "--cache must be at least 1 byte";
        }
        return null;
    }

    /** Pages the buffer covers when it starts on a page boundary: the buffer divided by the page, rounded up. */
    public long pages() {
        return Math.ceilDiv(bufferBytes, pageBytes);
    }

    public long tableBytes() {
        return Math.multiplyExact(pages(), entryBytes);
    }

    /** Entries that fit in the cache. */
    public long cachedEntries() {
        return cacheBytes / entryBytes;
    }

    /** Bytes of the buffer that the cached entries translate (all of it when the whole table fits). */
    public long mappedBytes() {
        return Math.min(Math.multiplyExact(Math.min(cachedEntries(), pages()), pageBytes), bufferBytes);
    }

    /** The results with their arithmetic, one line each. */
    public List<String> explain() {
        List<String> lines = new ArrayList<>();
        lines.add("MTT of a " + unit(bufferBytes) + " buffer in " + unit(pageBytes) + " pages, " + unit(entryBytes)
                + " per entry");
        boolean whole = bufferBytes % pageBytes == 0;
        lines.add("  pages      = " + (whole ? "" : "ceil(") + unit(bufferBytes) + " / " + unit(pageBytes) + (whole ? "" : ")")
                + " = " + count(pages()));
        if (!whole) {
            lines.add("               (the last page is partly used; a buffer that does not start on a page boundary "
                    + "may touch one page more)");
        }
        lines.add("  table size = " + count(pages()) + " entries x " + unit(entryBytes) + " = " + full(tableBytes()));
        if (cacheBytes > 0) {
            lines.add("  cache      = " + unit(cacheBytes) + " / " + unit(entryBytes) + " = " + count(cachedEntries())
                    + " entries");
            if (cachedEntries() >= pages()) {
                lines.add("  it maps    = the whole table: all " + unit(bufferBytes) + " of the buffer");
            } else {
                lines.add("  it maps    = " + count(cachedEntries()) + " x " + unit(pageBytes) + " = "
                        + full(mappedBytes()) + ", " + percent(mappedBytes(), bufferBytes) + " of the buffer");
            }
        }
        return lines;
    }

    private static String percent(long part, long whole) {
        double p = 100.0 * part / whole;
        return p == Math.rint(p) ? String.format(Locale.ROOT, "%.0f%%", p) : String.format(Locale.ROOT, "%.2f%%", p);
    }
}
