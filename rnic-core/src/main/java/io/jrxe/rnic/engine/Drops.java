package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketPort;

/**
 * How the receive path drops a packet: counted under its reason's counter, traced, and shown to
 * the capture (when one is on) with the reason as the packet's comment. The packet being handled
 * is the dispatch's current {@link RxPacket}.
 */
final class Drops {
    private final Counters counters;
    private final Tracer tracer;
    private final PacketPort port;
    /** The packet being handled, or null between packets. */
    private RxPacket current;

    Drops(Counters counters, Tracer tracer, PacketPort port) {
        this.counters = counters;
        this.tracer = tracer;
        this.port = port;
    }

    void handling(RxPacket packet) {
        current = packet;
    }

    /** Counts a dropped packet; a capture, if one is on, records it with the reason as its comment. */
    void drop(DropReason why, int qpn, RxPacket p) {
        count(why, qpn, p);
        show(why);
    }

    /** Counts and traces a drop, for one QP of several a packet was for (a multicast member). */
    void count(DropReason why, int qpn, RxPacket p) {
        counters.increment(Counter.of(why));
        tracer.trace(TraceEvent.DROPPED, qpn, 0, p.psn, p.opcodeValue, why.ordinal());
    }

    /** The capture, if one is on, records the packet being handled as dropped, with the reason as its comment. */
    void show(DropReason why) {
        RxPacket p = current;
        if (p != null) {
            port.reportDrop(p.buffer, p.offset, p.length, p.info, why);
        }
    }
}
