package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

/** What a device's TIMELY rates count: the rate counters, and the RTT samples they were fed. */
public final class TimelyCounters extends RateCounters {
    /** Round-trip samples the QPs' rates computed with ({@code jrxe_cc_rtt_samples}). */
    final SingleWriterCounter rttSamples = new SingleWriterCounter();

    /** Counters nobody reads but a test. */
    public TimelyCounters() {
    }

    public TimelyCounters(CounterRegistry registry) {
        registry.register("jrxe_cc_rtt_samples", rttSamples);
        registerRates(registry);
    }

    public long rttSamples() {
        return rttSamples.getAsLong();
    }
}
