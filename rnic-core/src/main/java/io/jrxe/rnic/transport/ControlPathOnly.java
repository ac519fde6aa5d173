package io.jrxe.rnic.transport;

import io.jrxe.rnic.NicExecutor;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.time.NicTime;

/**
 * No network: a device whose control verbs work (PDs, MRs, CQs, QPs and their state machine) and
 * which moves no data. For tests of the control path and for {@code regmr-cost}.
 */
public final class ControlPathOnly implements NicTransport {
    private final NicExecutor executor;

    private ControlPathOnly(NicExecutor executor) {
        this.executor = executor;
    }

    /** Commands run on the caller's thread. */
    public static ControlPathOnly inline() {
        return new ControlPathOnly(NicExecutor.INLINE);
    }

    /** Commands run on {@code executor}. */
    public static ControlPathOnly on(NicExecutor executor) {
        return new ControlPathOnly(executor);
    }

    @Override
    public PacketPort port() {
        return null;
    }

    @Override
    public NicTime time() {
        return null;
    }

    @Override
    public NicExecutor executor() {
        return executor;
    }

    @Override
    public boolean nicRunsElsewhere() {
        return false;
    }

    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "no network";
    }
}
