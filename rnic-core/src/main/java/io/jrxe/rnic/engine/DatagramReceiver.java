package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Port;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;

import java.nio.ByteBuffer;

/**
 * The UD responder: a datagram fills one receive WQE behind a 40-byte GRH area that describes
 * the datagram as it came, or is dropped when no receive is posted (no RNR on UD).
 */
final class DatagramReceiver {
    /** UD receivers find the packet's IP header in the first 40 bytes of their buffer (the GRH area). */
    static final int GRH_LENGTH = 40;

    private final Port port;
    private final Drops drops;
    private final Dma dma;
    private final ReceiveConsumer receives;
    private final DethFlyweight deth = new DethFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final ByteBuffer grh = ByteBuffer.allocate(GRH_LENGTH);
    private final RoceFramer framer = new RoceFramer();

    DatagramReceiver(Port port, Drops drops, Dma dma, ReceiveConsumer receives) {
        this.port = port;
        this.drops = drops;
        this.dma = dma;
        this.receives = receives;
    }

    void receive(QpEngine e, RxPacket p) {
        QueuePair qp = e.qp;
        Opcode op = p.opcode;
        int payloadLength = p.payloadLength;
        deth.wrap(p.buffer, p.at(ExtensionHeader.DETH)); // its Q_Key was checked with the headers, in the dispatch
        if (payloadLength > port.activeMtu().bytes()) {
            drops.drop(DropReason.MALFORMED, qp.qpn(), p);
            return;
        }
        if (!receives.take(e)) {
            drops.drop(DropReason.NO_RESOURCES, qp.qpn(), p);
            return;
        }
        // The GRH describes the datagram as it came: its UDP payload is the whole RoCE packet
        // (headers, ImmDt, payload, pad and ICRC), not just the BTH, DETH and payload.
        writeGrh(p.info, p.payloadOffset - p.offset + payloadLength + p.padCount + IcrcCalculator.LENGTH);
        ReceiveWqe wqe = e.resp.recvWqe;
        boolean fits = wqe.sgl().totalLength() >= GRH_LENGTH + payloadLength;
        if (!fits || dma.scatter(qp.pd(), wqe.sgl(), 0, grh, 0, GRH_LENGTH) != AccessError.NONE
                || dma.scatter(qp.pd(), wqe.sgl(), GRH_LENGTH, p.buffer, p.payloadOffset, payloadLength) != AccessError.NONE) {
            receives.fail(e, fits ? WcStatus.LOC_PROT_ERR : WcStatus.LOC_LEN_ERR, deth.srcQpn());
            return;
        }
        int imm = op.hasImmediate() ? immDt.wrap(p.buffer, p.at(ExtensionHeader.IMMDT)).immediate() : 0;
        receives.complete(e, WcOpcode.RECV, GRH_LENGTH + payloadLength, imm,
                WorkCompletion.WITH_GRH | (op.hasImmediate() ? WorkCompletion.WITH_IMM : 0), deth.srcQpn(), p.solicited);
    }

    /**
     * The GRH area as rxe fills it for RoCEv2: an IPv6 header fills all 40 bytes; an IPv4
     * header sits in the last 20, after 20 zero bytes. rxe copies the received IP header, whose
     * IPv4 checksum is valid: the framer computes it the same way.
     */
    private void writeGrh(PacketInfo info, int rocePacketLength) {
        ByteBuffer g = grh;
        for (int i = 0; i < GRH_LENGTH; i += 4) {
            g.putInt(i, 0);
        }
        framer.addresses(info.source.ipBytes(), info.destination.ipBytes())
                .identification(info.identification).tos(info.trafficClass).ttl(info.ttl).flowLabel(info.flowLabel);
        framer.writeIpHeader(g, info.source.ipv6() ? 0 : GRH_LENGTH - IcrcCalculator.IPV4_HEADER_LENGTH, rocePacketLength);
    }
}
