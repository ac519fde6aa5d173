package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

/** What a device's DCQCN rates count: the rate counters, and the CNPs that cut a rate. */
public final class DcqcnCounters extends RateCounters {
    /** CNPs that cut a QP's rate ({@code jrxe_cc_cnp_acted}). */
    final SingleWriterCounter cnpsActedOn = new SingleWriterCounter();

    /** Counters nobody reads but a test. */
    public DcqcnCounters() {
    }

    public DcqcnCounters(CounterRegistry registry) {
        registry.register("jrxe_cc_cnp_acted", cnpsActedOn);
        registerRates(registry);
    }
}
