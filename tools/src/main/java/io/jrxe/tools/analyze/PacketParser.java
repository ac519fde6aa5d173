package io.jrxe.tools.analyze;

import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;

/**
 * Reads a captured frame into a {@link RocePacket} with the wire module's frame layout, opcode table
 * and header flyweights, in place: nothing is allocated per frame. A frame cut by the capture's
 * snapshot length still gives its headers (its ICRC cannot be checked); one that is broken in a way
 * that hides them is MALFORMED, with the reason.
 */
final class PacketParser {
    enum Kind { ROCE, MALFORMED, OTHER }

    private final FrameLayout layout = new FrameLayout();
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final IcrcCalculator rxeFlushIcrc = new IcrcCalculator().rxeFlush(true);
    private final BthFlyweight bth = new BthFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private byte[] wrapped;
    private ByteBuffer buffer;
    private String reason;

    /** Why the last frame was MALFORMED. */
    String reason() {
        return reason;
    }

    Kind parse(byte[] data, int captured, int original, int linkType, RocePacket p) {
        if (data != wrapped) {
            wrapped = data;
            buffer = ByteBuffer.wrap(data);
        }
        reason = null;
        FrameLayout.Kind kind = layout.parse(buffer, 0, captured, linkType);
        boolean cut = false;
        if (kind == FrameLayout.Kind.OTHER) {
            return Kind.OTHER;
        }
        if (kind == FrameLayout.Kind.MALFORMED) {
            if (layout.dstPort() != RoceFramer.ROCE_V2_PORT && layout.dstPort() != 0) {
                return Kind.OTHER;
            }
            // Cut by the snapshot length after its BTH: the headers are there, the ICRC is not.
            cut = original > captured && layout.dstPort() == RoceFramer.ROCE_V2_PORT
                    && layout.udpOffset() + IcrcCalculator.UDP_HEADER_LENGTH + BthFlyweight.LENGTH <= captured;
            if (!cut) {
                reason = layout.reason();
                return layout.dstPort() == RoceFramer.ROCE_V2_PORT || layout.ipVersion() != 0 ? Kind.MALFORMED : Kind.OTHER;
            }
        }
        int b = cut ? layout.udpOffset() + IcrcCalculator.UDP_HEADER_LENGTH : layout.bthOffset();
        int roceLength = layout.udpLength() - IcrcCalculator.UDP_HEADER_LENGTH;
        addresses(p);
        p.srcPort = layout.srcPort();
        p.bthOffset = b;
        p.capturedLength = captured;
        bth.wrap(buffer, b);
        p.opcodeCode = bth.opcode();
        p.opcode = Opcode.of(p.opcodeCode);
        p.psn = bth.psn();
        p.destQpn = bth.destQpn();
        p.ackRequest = bth.ackRequest();
        p.fecn = bth.fecn();
        p.becn = bth.becn();
        p.syndrome = -1;
        p.dmaLength = -1;
        p.dethSrcQp = -1;
        p.payloadLength = 0;
        Opcode op = p.opcode;
        if (op == null) {
            reason = String.format("unknown opcode 0x%02x", p.opcodeCode);
            return Kind.MALFORMED;
        }
        if (roceLength < op.headerLength() + IcrcCalculator.LENGTH) {
            reason = String.format("%s needs %d header bytes and a 4-byte ICRC, but the packet has %d bytes",
                    op.displayName(), op.headerLength(), roceLength);
            return Kind.MALFORMED;
        }
        int headersEnd = b + op.headerLength();
        if (headersEnd > captured) {
            reason = "the capture kept " + captured + " bytes of the frame, not all of its " + op.displayName()
                    + " headers";
            return Kind.MALFORMED;
        }
        extensions(op, b, p);
        p.payloadLength = Math.max(0, roceLength - op.headerLength() - IcrcCalculator.LENGTH - bth.padCount());
        if (cut) {
            p.icrc = RocePacket.IcrcState.NOT_CHECKED;
            p.icrcStored = 0;
            p.icrcComputed = 0;
        } else {
            p.icrcStored = IcrcCalculator.read(buffer, b + roceLength - IcrcCalculator.LENGTH);
            p.icrcComputed = icrc.ofIpPacket(buffer, layout.ipOffset(), layout.ipPacketLength());
            if (p.icrcComputed != p.icrcStored && op == Opcode.RC_FLUSH) {
                // Linux's rxe covers a FLUSH's headers twice (wire.md); its FLUSH is not corrupt for that.
                int asRxe = rxeFlushIcrc.ofIpPacket(buffer, layout.ipOffset(), layout.ipPacketLength());
                p.icrcComputed = asRxe == p.icrcStored ? asRxe : p.icrcComputed;
            }
            p.icrc = p.icrcComputed == p.icrcStored ? RocePacket.IcrcState.OK : RocePacket.IcrcState.BAD;
            if (!op.hasPayload() && p.payloadLength + bth.padCount() != 0) {
                reason = String.format("%s carries no payload, but %d bytes follow its headers", op.displayName(),
                        p.payloadLength + bth.padCount());
                return Kind.MALFORMED;
            }
        }
        return Kind.ROCE;
    }

    private void addresses(RocePacket p) {
        int ip = layout.ipOffset();
        p.ipVersion = layout.ipVersion();
        if (p.ipVersion == 4) {
            buffer.get(ip + 12, p.src, 0, 4);
            buffer.get(ip + 16, p.dst, 0, 4);
            p.ipId = buffer.getShort(ip + 4) & 0xFFFF;
            p.ecn = buffer.get(ip + 1) & 0x3;
        } else {
            buffer.get(ip + 8, p.src, 0, 16);
            buffer.get(ip + 24, p.dst, 0, 16);
            p.ipId = -1;
            p.ecn = (buffer.getInt(ip) >>> 20) & 0x3;
        }
    }

    private void extensions(Opcode op, int b, RocePacket p) {
        int at = op.offsetOf(ExtensionHeader.AETH);
        if (at >= 0) {
            aeth.wrap(buffer, b + at);
            p.syndrome = aeth.syndrome();
            p.msn = aeth.msn();
        }
        at = op.offsetOf(ExtensionHeader.RETH);
        if (at >= 0) {
            p.dmaLength = reth.wrap(buffer, b + at).dmaLength();
        }
        at = op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH);
        if (at >= 0) {
            p.atomicOriginal = atomicAck.wrap(buffer, b + at).originalData();
        }
        at = op.offsetOf(ExtensionHeader.DETH);
        if (at >= 0) {
            p.dethSrcQp = deth.wrap(buffer, b + at).srcQpn();
        }
    }
}
