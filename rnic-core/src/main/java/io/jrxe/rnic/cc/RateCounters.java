package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

/**
 * What a rate-based part's QPs count, shared by a device's QPs (all on the NIC thread): the
 * counters {@code jrxe stat} and the tests read, with the same names whichever part it is.
 */
public class RateCounters {
    /** Cuts of a QP's rate ({@code jrxe_cc_rate_decreased}). */
    final SingleWriterCounter rateDecreased = new SingleWriterCounter();
    /** Steps up of a QP's rate ({@code jrxe_cc_rate_increased}). */
    final SingleWriterCounter rateIncreased = new SingleWriterCounter();
    /** Packets the pacer held back until their QP's next slot ({@code jrxe_cc_paced}). */
    final SingleWriterCounter paced = new SingleWriterCounter();
    /** QPs sending below the line rate now: a gauge, up at a QP's first cut, down when it is back ({@code jrxe_cc_rate_limited_qps}). */
    final SingleWriterCounter rateLimitedQps = new SingleWriterCounter();

    /** Counters nobody reads but a test. */
    RateCounters() {
    }

    /** Puts the rate counters in the registry (a part's own counters may come before them). */
    final void registerRates(CounterRegistry registry) {
        registry.register("jrxe_cc_rate_decreased", rateDecreased);
        registry.register("jrxe_cc_rate_increased", rateIncreased);
        registry.register("jrxe_cc_paced", paced);
        registry.register("jrxe_cc_rate_limited_qps", rateLimitedQps);
    }

    public long rateDecreased() {
        return rateDecreased.getAsLong();
    }

    public long rateIncreased() {
        return rateIncreased.getAsLong();
    }

    public long rateLimitedQps() {
        return rateLimitedQps.getAsLong();
    }
}
