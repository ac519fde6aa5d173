package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.CnpWriter;
import io.jrxe.wire.time.NicTime;

/**
 * The notification point of RoCEv2 congestion control: a packet that arrives for a connected QP with the ECN
 * Congestion Experienced mark makes the QP send its peer a CNP (BTH opcode 0x81 to the peer's QP), from the QP's
 * UDP source port, unless it sent one within the interval. The peer's congestion control hears of it (the reaction
 * point). It runs whatever the device's congestion control is: a CE mark only comes to packets a sender made
 * ECN-capable, and a peer that does not react counts the CNP and drops it.
 */
final class NotificationPoint {
    /** A QP that never sent a CNP. */
    static final long NO_CNP_YET = Long.MIN_VALUE;

    private final Transmitter out;
    private final NicTime time;
    private final Counters counters;
    private final long intervalNanos;
    private final CnpWriter cnp = new CnpWriter();

    NotificationPoint(Transmitter out, NicTime time, Counters counters, long intervalNanos) {
        this.out = out;
        this.time = time;
        this.counters = counters;
        this.intervalNanos = intervalNanos;
    }

    /** A packet for {@code e} arrived marked CE. */
    void marked(QpEngine e) {
        // A UD QP has no one peer: the marked datagram's sender is not kept, so it gets no CNP.
        if (e.peer == null) {
            counters.increment(Counter.CNP_NOT_SENT);
            return;
        }
        long now = time.nanoTime();
        if (e.lastCnpNanos != NO_CNP_YET && now - e.lastCnpNanos < intervalNanos) {
            counters.increment(Counter.CNP_NOT_SENT);
            return;
        }
        e.lastCnpNanos = now;
        int length = cnp.write(out.tx, 0, BthFlyweight.DEFAULT_PKEY, e.qp.destQpn());
        counters.increment(Counter.SENT_CNP); // before it leaves: whoever receives it then finds it counted
        out.send(e.peer, e.srcPort, length);
    }
}
