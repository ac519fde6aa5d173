package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

/**
 * Congestion control {@code dcqcn}: the default {@link DeviceWindow} (the device's cap of packets
 * in flight still holds, for the reasons it has) with a DCQCN rate limiter per QP on top
 * ({@link DcqcnRate}). A QP sends when both let it: the pacer is asked first, since asking the
 * window takes a turn in its queue. CNPs cut the QP's rate; ECN marks are the notification point's
 * business, and the window counts them as it does under {@code none}.
 * <p>
 * Only a requester's new packets are paced: resent packets and READ responses go as under
 * {@code none} (the requester asks the part about new packets only, and a READ response the pacer
 * held would wait on a peer's timer that the window's reasoning in {@link Flow#mayRespond} warns of).
 */
public final class Dcqcn extends PacedControl {
    private final DcqcnParameters parameters;
    private final NicTime time;
    private final DcqcnCounters counters;

    public Dcqcn(DcqcnParameters parameters, int windowPackets, NicTime time, CounterRegistry counters) {
        super(windowPackets, time, counters);
        this.parameters = parameters;
        this.time = time;
        this.counters = new DcqcnCounters(counters);
    }

    /** The factory of DCQCN with these settings over a device window of {@link DeviceWindow#DEFAULT_PACKETS}. */
    public static Factory of(DcqcnParameters parameters) {
        return (time, counters) -> new Dcqcn(parameters, DeviceWindow.DEFAULT_PACKETS, time, counters);
    }

    public DcqcnParameters parameters() {
        return parameters;
    }

    @Override
    public String name() {
        return "dcqcn";
    }

    @Override
    PacedRate rate(int qpn, Runnable wake, RateChangeListener changes) {
        return new DcqcnRate(parameters, time, qpn, wake, counters, changes);
    }

    @Override
    RateCounters rateCounters() {
        return counters;
    }
}
