package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

/**
 * A rate-based part: the default {@link DeviceWindow} (the device's cap of packets in flight still
 * holds, for the reasons it has) with a rate per QP on top, which the family says how to move
 * ({@link Dcqcn}, {@link Timely}). Each QP's flow is a {@link PacedFlow}.
 */
abstract sealed class PacedControl implements CongestionControl permits Dcqcn, Timely {
    private final DeviceWindow window;
    private RateChangeListener rateChanges = RateChangeListener.NONE;

    /** The window registers its counters first, then the family its own. */
    PacedControl(int windowPackets, NicTime time, CounterRegistry counters) {
        this.window = new DeviceWindow(windowPackets, time, counters);
    }

    /** A new QP's rate, which reports its changes to {@code changes}. */
    abstract PacedRate rate(int qpn, Runnable wake, RateChangeListener changes);

    /** The counters the family's QPs share (the pacer counts what it holds back there). */
    abstract RateCounters rateCounters();

    @Override
    public final Flow attach(int qpn, Runnable wake) {
        return new PacedFlow(window.attach(qpn, wake), rate(qpn, wake, rateChanges), rateCounters());
    }

    @Override
    public final void reportRateChanges(RateChangeListener listener) {
        rateChanges = listener;
    }
}
