package io.jrxe.tools.common;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;

/**
 * What on-demand paging cost a command whose memory was registered ON_DEMAND, as one line after its results:
 * the pages the NIC faulted in, the pages a prefetch brought ahead of use, and the RNR NAKs the RNR_NAK fault
 * policy sent (docs/odp.md). Only a jrxe device has these counters; a kernel device prints nothing.
 */
public final class OdpCountersLine {
    private OdpCountersLine() {
    }

    /** "ODP on jrxe0: page_faults=1 prefetched_pages=0 rnr_naks=0", counted from when the command got the device. */
    public static void print(LocalDevice dev, PrintWriter out) {
        if (!(dev instanceof EmulatedLocalDevice)) {
            return;
        }
        try {
            long[] moved = dev.moved(Counter.ODP_PAGE_FAULTS.label(), Counter.ODP_PREFETCHED_PAGES.label(),
                    Counter.ODP_RNR_NAKS.label());
            out.printf("ODP on %s: page_faults=%d prefetched_pages=%d rnr_naks=%d%n", dev.name(), moved[0], moved[1], moved[2]);
        } catch (VerbsException e) {
            out.println("ODP on " + dev.name() + ": counters unavailable: " + e.getMessage());
        }
    }
}
