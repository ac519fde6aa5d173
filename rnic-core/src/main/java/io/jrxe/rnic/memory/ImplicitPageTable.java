package io.jrxe.rnic.memory;

import io.netty.util.collection.LongObjectHashMap;
import io.netty.util.collection.LongObjectMap;

import java.util.Iterator;

/**
 * The pages of one implicit MR that are present or on their way in, by page number (an address shifted right by
 * {@link MptEntry#PAGE_SHIFT}: an implicit MR's iova is 0 and every address is its own, so a page's number is its MTT
 * index). An implicit MR reaches the whole address space, so it cannot have a run of MTT entries as an MR with a
 * range does: it keeps the pages it has seen and nothing else, and a page not here is not present.
 *
 * <p>Netty's map with primitive keys holds them, each with {@link Boolean#TRUE} when present and
 * {@link Boolean#FALSE} when on its way in, so that a lookup on the data path neither boxes a page number nor
 * allocates. NIC thread only.
 */
final class ImplicitPageTable implements PageEntries {
    private final LongObjectHashMap<Boolean> pages = new LongObjectHashMap<>();

    @Override
    public long get(long page) {
        Boolean present = pages.get(page);
        if (present == null) {
            return OnDemandPaging.NOT_PRESENT;
        }
        return present ? page << MptEntry.PAGE_SHIFT : OnDemandPaging.BRINGING_IN;
    }

    @Override
    public void set(long page, long entry) {
        if (entry == OnDemandPaging.NOT_PRESENT) {
            pages.remove(page);
        } else {
            pages.put(page, Boolean.valueOf(entry != OnDemandPaging.BRINGING_IN));
        }
    }

    /** How many pages are present or on their way in. */
    int size() {
        return pages.size();
    }

    /**
     * Forgets pages {@code first} to {@code last}, present or on their way in (an invalidation, or a segment
     * unmapped). A range wider than the table is swept entry by entry, so a large unmapped segment costs what the
     * table holds, not what the segment spans.
     *
     * @return how many of them were present
     */
    long removeRange(long first, long last) {
        long present = 0;
        if (last - first < pages.size()) {
            for (long page = first; page <= last; page++) {
                if (Boolean.TRUE.equals(pages.remove(page))) {
                    present++;
                }
            }
            return present;
        }
        for (Iterator<LongObjectMap.PrimitiveEntry<Boolean>> i = pages.entries().iterator(); i.hasNext(); ) {
            LongObjectMap.PrimitiveEntry<Boolean> e = i.next();
            if (e.key() >= first && e.key() <= last) {
                if (e.value()) {
                    present++;
                }
                i.remove();
            }
        }
        return present;
    }
}
