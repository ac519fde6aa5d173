package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

/**
 * Congestion control {@code timely}: the default {@link DeviceWindow} (the device's cap of packets
 * in flight still holds, for the reasons it has) with a TIMELY rate per QP on top
 * ({@link TimelyRate}), moved by the round trips the requester measures ({@link Flow#roundTripMeasured}).
 * CNPs and ECN marks are not its signals: the window counts them as it does under {@code none}.
 * What is paced is what {@link Dcqcn} paces: a requester's new packets.
 */
public final class Timely extends PacedControl {
    private final TimelyParameters parameters;
    private final NicTime time;
    private final TimelyCounters counters;

    public Timely(TimelyParameters parameters, int windowPackets, NicTime time, CounterRegistry counters) {
        super(windowPackets, time, counters);
        this.parameters = parameters;
        this.time = time;
        this.counters = new TimelyCounters(counters);
    }

    /** The factory of TIMELY with these settings over a device window of {@link DeviceWindow#DEFAULT_PACKETS}. */
    public static Factory of(TimelyParameters parameters) {
        return (time, counters) -> new Timely(parameters, DeviceWindow.DEFAULT_PACKETS, time, counters);
    }

    public TimelyParameters parameters() {
        return parameters;
    }

    @Override
    public String name() {
        return "timely";
    }

    @Override
    PacedRate rate(int qpn, Runnable wake, RateChangeListener changes) {
        return new TimelyRate(parameters, time, qpn, wake, counters, changes);
    }

    @Override
    RateCounters rateCounters() {
        return counters;
    }
}
