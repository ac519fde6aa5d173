package io.jrxe.rnic.cc;

/**
 * One QP under a rate-based part: the device window's flow (its cap of packets in flight still
 * holds, for the reasons it has) and the QP's own rate. A QP sends when both let it: the rate is
 * asked first, since asking the window takes a turn in its queue. Signals the rate does not act on
 * (ECN marks, and CNPs under a part that ignores them) go to the window, which counts them as
 * under {@code none}.
 */
final class PacedFlow implements CongestionControl.Flow {
    private final CongestionControl.Flow windowFlow;
    private final PacedRate rate;
    private final RateCounters counters;

    PacedFlow(CongestionControl.Flow windowFlow, PacedRate rate, RateCounters counters) {
        this.windowFlow = windowFlow;
        this.rate = rate;
        this.counters = counters;
    }

    @Override
    public boolean mayTransmit() {
        if (!rate.mayTransmit()) {
            counters.paced.increment();
            return false;
        }
        return windowFlow.mayTransmit();
    }

    @Override
    public boolean mayResend() {
        if (!rate.mayResend()) {
            counters.paced.increment();
            return false;
        }
        return true;
    }

    @Override
    public boolean mayRespond() {
        return windowFlow.mayRespond();
    }

    @Override
    public boolean nearLimit() {
        return windowFlow.nearLimit();
    }

    /**
     * The window's answer only: a paced QP waits microseconds for its timer, not for an ACK, so
     * asking for an ACK on every paced packet would only double the packets on a congested path.
     */
    @Override
    public boolean refusesNext() {
        return windowFlow.refusesNext();
    }

    @Override
    public void transmitted(int bytes) {
        rate.transmitted(bytes);
    }

    @Override
    public void resent(int bytes) {
        rate.resent(bytes);
    }

    @Override
    public void acknowledged(int packets) {
        windowFlow.acknowledged(packets);
    }

    @Override
    public void roundTripMeasured(long nanos) {
        rate.roundTrip(nanos);
    }

    @Override
    public void turnEnded() {
        windowFlow.turnEnded();
    }

    @Override
    public void inFlight(int packets) {
        windowFlow.inFlight(packets);
    }

    @Override
    public void ackRequested() {
        windowFlow.ackRequested();
    }

    @Override
    public void congestionNotified() {
        if (!rate.actOnCnp()) {
            windowFlow.congestionNotified();
        }
    }

    @Override
    public void congestionExperienced() {
        windowFlow.congestionExperienced();
    }

    @Override
    public void detach() {
        rate.detach();
        windowFlow.detach();
    }
}
