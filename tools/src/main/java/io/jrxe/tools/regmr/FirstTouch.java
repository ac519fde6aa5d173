package io.jrxe.tools.regmr;

/**
 * What the first access to a fresh ON_DEMAND registration of {@code bytes} cost (regmr-cost --odp): a synchronous
 * prefetch of the whole buffer for writing, which brings every page into the MTT as a first transfer would.
 *
 * @param time          the wall-clock spread of the prefetch over the round's fresh registrations
 * @param pagesIn       pages the touch brought in (jrxe_odp_prefetched_pages moved by that many): all of them, since
 *                      the registration pinned none; -1 on a device without jrxe's ODP counters (a kernel device)
 * @param modelledNanos what the device's model says bringing them in costs (jrxe_odp_fault_nanos), which a jrxe NIC
 *                      counts rather than waits for; -1 on a device without the counter
 */
record FirstTouch(long bytes, Spread time, long pagesIn, long modelledNanos) {
}
