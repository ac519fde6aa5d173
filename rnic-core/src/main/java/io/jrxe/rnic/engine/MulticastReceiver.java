package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.mcast.MulticastGroup;
import io.jrxe.rnic.mcast.MulticastGroups;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.wire.port.DropReason;

/**
 * A datagram for QP 0xFFFFFF, as rxe_rcv_mcast_pkt handles it: the group is found by the packet's destination IP
 * address, and every QP of the device attached to it that passes the checks a QP's own packet would (UD, its
 * state, the P_Key, its Q_Key) gets a copy, in the order the QPs were attached. A QP that fails them misses its
 * copy and the others still get theirs; the failure is counted under its reason. The packet counts once in
 * rcvd_pkts, as rxe counts it before the copies; it is shown dropped only when no QP took it.
 */
final class MulticastReceiver {
    private final MulticastGroups groups;
    private final Counters counters;
    private final Drops drops;
    private final Tracer tracer;
    private final QpTable engines;
    private final HeaderCheck headers;
    private final Responder responder;

    MulticastReceiver(MulticastGroups groups, Counters counters, Drops drops, Tracer tracer, QpTable engines,
                      HeaderCheck headers, Responder responder) {
        this.groups = groups;
        this.counters = counters;
        this.drops = drops;
        this.tracer = tracer;
        this.engines = engines;
        this.headers = headers;
        this.responder = responder;
    }

    void receive(RxPacket p) {
        MulticastGroup group = groups.group(p.info.destination);
        if (group == null) {
            drops.drop(DropReason.NO_MCAST_GROUP, MulticastGid.QPN, p);
            return;
        }
        counters.increment(Counter.RCVD_PKTS);
        counters.add(Counter.RCVD_BYTES, Counter.ipPacketLength(p.length, p.info.source.ipv6()));
        counters.increment(Counter.MCAST_RCVD_PKTS);
        DropReason lastRefusal = null;
        int copies = 0;
        for (int i = 0; i < group.size(); i++) {
            QpEngine e = engines.get(group.member(i).qpn());
            if (e == null) {
                continue; // not possible while attached (a QP with attachments cannot be destroyed); a copy for nobody
            }
            DropReason refused = headers.check(e, p);
            if (refused != null) {
                drops.count(refused, e.qp.qpn(), p);
                lastRefusal = refused;
                continue;
            }
            tracer.trace(TraceEvent.PACKET_RECEIVED, e.qp.qpn(), 0, p.psn, p.opcodeValue, p.length);
            responder.request(e, p);
            copies++;
        }
        counters.add(Counter.MCAST_COPIES, copies);
        if (copies == 0 && lastRefusal != null) {
            drops.show(lastRefusal);
        }
    }
}
