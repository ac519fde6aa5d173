package io.jrxe.rnic.memory;

/**
 * What on-demand paging knows of each page of an MR, by the page's MTT index: {@link OnDemandPaging#NOT_PRESENT},
 * {@link OnDemandPaging#BRINGING_IN} or the page's address. An MR with a range keeps its pages in its run of the
 * device's {@link TranslationTable}; an implicit MR, whose range is the whole address space, keeps them in an
 * {@link ImplicitPageTable}, which holds only the pages it has seen. NIC thread only.
 */
interface PageEntries {
    /** The entry at {@code index}: NOT_PRESENT when nothing was stored there. */
    long get(long index);

    /** Stores {@code entry} at {@code index}; NOT_PRESENT empties it. */
    void set(long index, long entry);
}
