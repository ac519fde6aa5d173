package io.jrxe.rnic.memory;

/**
 * The memory translation part's page-fault hook: what the NIC does when a transfer reaches a page
 * of a region that has no translation in the MTT. Pinned registration (every region today)
 * translates every page when it registers, so its hook is never called; on-demand paging leaves
 * pages untranslated and brings them in here. A NIC gets it from its context. NIC thread only.
 */
@FunctionalInterface
public interface PageFaultHook {
    /**
     * Brings in the page behind MTT entry {@code mttIndex} of {@code region} and returns its host
     * address (page-aligned); the hook may also store it in the MTT so that it does not fault again.
     */
    long fault(MptEntry region, long mttIndex, TranslationTable mtt);

    /** Pinned memory: a page without a translation is a NIC bug, never a fault to serve. */
    PageFaultHook PINNED = (region, mttIndex, mtt) -> {
        throw new IllegalStateException(String.format("MTT entry %d of %s has no page, yet the region is pinned",
                mttIndex, region));
    };
}
