package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.mcast.MulticastGroup;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;

import java.nio.ByteBuffer;

/**
 * A datagram for QP 0xFFFFFF, as rxe_rcv_mcast_pkt handles it: the group is found by the packet's destination IP
 * address, and every QP of the device attached to it that passes the checks a QP's own packet would (UD, its
 * state, the P_Key, its Q_Key) gets a copy, in the order the QPs were attached. A QP that fails them misses its
 * copy and the others still get theirs; the failure is counted under its reason. The packet counts once in
 * rcvd_pkts, as rxe counts it before the copies; it is shown dropped only when no QP took it.
 */
final class MulticastReceiver {
    private final DataPath dp;
    private final Counters counters;

    MulticastReceiver(DataPath dp) {
        this.dp = dp;
        this.counters = dp.rnic.counters();
    }

    void receive(BthFlyweight bth, Opcode opcode, ByteBuffer buffer, int offset, int length, int payloadLength,
                 PacketInfo info) {
        MulticastGroup group = dp.rnic.multicast().group(info.destination);
        if (group == null) {
            dp.drop(DropReason.NO_MCAST_GROUP, MulticastGid.QPN, bth.psn(), bth.opcode());
            return;
        }
        counters.increment(Counter.RCVD_PKTS);
        counters.increment(Counter.MCAST_RCVD_PKTS);
        int payloadOffset = offset + opcode.headerLength();
        DropReason lastRefusal = null;
        int copies = 0;
        for (int i = 0; i < group.size(); i++) {
            QpEngine e = dp.engine(group.member(i).qpn());
            if (e == null) {
                continue; // not possible while attached (a QP with attachments cannot be destroyed); a copy for nobody
            }
            DropReason refused = dp.check(e, opcode, bth, buffer, offset, info);
            if (refused != null) {
                dp.countDrop(refused, e.qp.qpn(), bth.psn(), bth.opcode());
                lastRefusal = refused;
                continue;
            }
            dp.trace(TraceEvent.PACKET_RECEIVED, e.qp.qpn(), 0, bth.psn(), bth.opcode(), length);
            dp.responder.request(e, opcode, buffer, offset, payloadOffset, payloadLength, info);
            copies++;
        }
        counters.add(Counter.MCAST_COPIES, copies);
        if (copies == 0 && lastRefusal != null) {
            dp.showDrop(lastRefusal);
        }
    }
}
