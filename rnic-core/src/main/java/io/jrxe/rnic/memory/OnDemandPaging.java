package io.jrxe.rnic.memory;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.wire.time.NicTime;

/**
 * On-demand paging: the translation part's page-fault hook for MRs registered with Access.ON_DEMAND. Such an MR
 * gets its MTT entries at registration but no page in them; the first access by the NIC to a page brings it in
 * (stores its address in the MTT), an invalidation (the MMU notifier's part) takes it out again, and a prefetch
 * (ibv_advise_mr) brings pages in ahead of use. A fault of a pinned MR goes to the hook the NIC was given.
 *
 * <p>An MTT entry of an ODP MR is in one of three states: {@link #NOT_PRESENT} (0), {@link #BRINGING_IN} (a page
 * asked for by a peer's request answered with an RNR NAK, or by a prefetch that does not wait: it arrives after the
 * fault cost), or present
 * (the page's address, a multiple of the page size). Anything below the page size is not present, so the data
 * path's test for a translated page stays one comparison. An implicit MR keeps the same three states per page in
 * its {@link ImplicitPageTable} instead of an MTT run, and everything here works on either. NIC thread only.
 */
public final class OnDemandPaging implements PageFaultHook {
    /** An MTT entry with no page. */
    public static final long NOT_PRESENT = 0;
    /** An MTT entry whose page is on its way in; never a page address (those are page-aligned and above 0). */
    public static final long BRINGING_IN = 1;

    private final OdpSettings settings;
    private final Counters counters;
    private final PageFaultHook pinned;
    private final NicTime clock;

    /**
     * @param pinned the hook for pages of pinned MRs (a NIC bug unless a test stands in)
     * @param clock  the NIC's clock: pages asked for asynchronously arrive through its timers
     */
    public OnDemandPaging(OdpSettings settings, Counters counters, PageFaultHook pinned, NicTime clock) {
        this.settings = settings;
        this.counters = counters;
        this.pinned = pinned;
        this.clock = clock;
    }

    public OdpSettings settings() {
        return settings;
    }

    /** Whether a peer's request to a page not present is answered with an RNR NAK rather than waited for. */
    public boolean naksRemoteFaults() {
        return settings.remoteFaults() == RemoteFaultPolicy.RNR_NAK;
    }

    /** A fault in line: the page is brought in now, counted once (not again if it was already on its way). */
    @Override
    public long fault(MptEntry region, long mttIndex, TranslationTable mtt) {
        if (!region.onDemand()) {
            return pinned.fault(region, mttIndex, mtt);
        }
        PageEntries pages = pagesOf(region, mtt);
        if (pages.get(mttIndex) == NOT_PRESENT) {
            counters.increment(Counter.ODP_PAGE_FAULTS);
        }
        return bringIn(region, mttIndex, pages);
    }

    /** Whether every page of [iova, iova+length) of a checked entry is present. */
    public boolean present(MptEntry e, long iova, long length, TranslationTable mtt) {
        if (length <= 0) {
            return true;
        }
        PageEntries pages = pagesOf(e, mtt);
        for (long i = e.mttIndex(iova), last = e.mttIndex(iova + length - 1); i <= last; i++) {
            if (pages.get(i) < MptEntry.PAGE_SIZE) {
                return false;
            }
        }
        return true;
    }

    /**
     * A peer's request reached pages not present and is answered with an RNR NAK: the pages not yet asked for are
     * counted as faults and arrive after the fault cost.
     */
    public void bringInLater(MptEntry e, long iova, long length, TranslationTable mtt) {
        MptEntry mr = e.isWindow() ? e.boundMr() : e;
        counters.add(Counter.ODP_PAGE_FAULTS, askFor(mr, e.mttIndex(iova), e.mttIndex(iova + length - 1), mtt));
    }

    /**
     * ibv_advise_mr's prefetch of a checked range of an ODP MR: with {@code now} the pages are brought in before it
     * returns (IBV_ADVISE_MR_FLAG_FLUSH); otherwise they arrive after the fault cost.
     *
     * @return the pages this prefetch brought in (now) or asked for (later)
     */
    public long prefetch(MptEntry mr, long iova, long length, TranslationTable mtt, boolean now) {
        long first = mr.mttIndex(iova);
        long last = mr.mttIndex(iova + length - 1);
        long brought = 0;
        if (now) {
            PageEntries pages = pagesOf(mr, mtt);
            for (long i = first; i <= last; i++) {
                if (pages.get(i) < MptEntry.PAGE_SIZE) {
                    bringIn(mr, i, pages);
                    brought++;
                }
            }
        } else {
            brought = askFor(mr, first, last, mtt);
        }
        counters.add(Counter.ODP_PREFETCHED_PAGES, brought);
        return brought;
    }

    /**
     * Marks the MTT entries [first, last] that have no page as on their way in, and has them arrive after the fault
     * cost, unless the MR is deregistered or re-registered first.
     *
     * @return how many were marked (none when all were present or on their way already)
     */
    private long askFor(MptEntry mr, long first, long last, TranslationTable mtt) {
        PageEntries pages = pagesOf(mr, mtt);
        long asked = 0;
        for (long i = first; i <= last; i++) {
            if (pages.get(i) == NOT_PRESENT) {
                pages.set(i, BRINGING_IN);
                asked++;
            }
        }
        if (asked > 0) {
            int key = mr.key();
            clock.schedule(settings.faultCostNanos(), () -> arrive(mr, key, first, last, mtt));
        }
        return asked;
    }

    /**
     * The MMU notifier's invalidation of [iova, iova+length) of an ODP MR: its pages leave the MTT and fault again on
     * their next access. Pages on their way in are dropped too.
     *
     * @return the pages that were present
     */
    public long invalidate(MptEntry mr, long iova, long length, TranslationTable mtt) {
        long first = mr.mttIndex(iova);
        long last = mr.mttIndex(iova + length - 1);
        long dropped = 0;
        if (mr.isImplicit()) {
            dropped = mr.implicitPages.removeRange(first, last);
        } else {
            for (long i = first; i <= last; i++) {
                long page = mtt.get(i);
                if (page != NOT_PRESENT) {
                    mtt.set(i, NOT_PRESENT);
                    if (page >= MptEntry.PAGE_SIZE) {
                        dropped++;
                    }
                }
            }
        }
        counters.increment(Counter.ODP_INVALIDATIONS);
        return dropped;
    }

    /** Counts an RNR NAK a peer's fault was answered with. */
    public void rnrNakSent() {
        counters.increment(Counter.ODP_RNR_NAKS);
    }

    /** Stores the page's address in the MR's page entries, charging the fault cost. */
    private long bringIn(MptEntry mr, long mttIndex, PageEntries pages) {
        long page = mr.pageAddress(mttIndex);
        pages.set(mttIndex, page);
        counters.add(Counter.ODP_FAULT_NANOS, settings.faultCostNanos());
        return page;
    }

    /** Where an entry's pages are: its MR's run of the MTT, or an implicit MR's own table. */
    private static PageEntries pagesOf(MptEntry e, TranslationTable mtt) {
        MptEntry mr = e.isWindow() ? e.boundMr() : e;
        return mr.isImplicit() ? mr.implicitPages : mtt;
    }

    /**
     * Pages asked for arrive: the entries still on their way get their pages, if the MR is still the registration
     * they were asked for (a deregistration or re-registration changed its key and its MTT run is someone else's
     * now). When its memory was freed meanwhile they go back to not present, and an access is refused by the check.
     * An implicit MR's pages on their way leave when their segment is unmapped; those of a segment freed but still
     * mapped arrive, and the check refuses every access to them.
     */
    private void arrive(MptEntry mr, int key, long first, long last, TranslationTable mtt) {
        if (mr.kind() != KeyKind.MR || mr.key() != key) {
            return;
        }
        boolean alive = mr.isImplicit() || mr.segment().scope().isAlive();
        PageEntries pages = pagesOf(mr, mtt);
        for (long i = first; i <= last; i++) {
            if (pages.get(i) == BRINGING_IN) {
                if (alive) {
                    bringIn(mr, i, pages);
                } else {
                    pages.set(i, NOT_PRESENT);
                }
            }
        }
    }
}
