package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.FethFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Takes a captured frame apart into a {@link DissectedPacket}. Made for tools and tests (it
 * allocates the records it returns); never throws for bad input: a frame too short for what it
 * claims to be comes back MALFORMED with the reason.
 */
public final class Dissector {
    private final FrameLayout layout = new FrameLayout();
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final BthFlyweight bthView = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final AtomicAckEthFlyweight atomicAckEth = new AtomicAckEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final FethFlyweight feth = new FethFlyweight();
    private final MadDissector madDissector = new MadDissector();

    public DissectedPacket dissect(long frame, long timestampNanos, byte[] data, int linkType) {
        ByteBuffer buffer = ByteBuffer.wrap(data);
        FrameLayout.Kind kind = layout.parse(buffer, 0, data.length, linkType);
        HeaderFields.Ethernet eth = linkType == LinkType.ETHERNET && data.length >= 14
                ? new HeaderFields.Ethernet(mac(buffer, 0), mac(buffer, 6), buffer.getShort(12) & 0xFFFF) : null;
        HeaderFields.Ip ip = hasWholeIpHeader(data.length) && kind != FrameLayout.Kind.OTHER ? ip(buffer) : null;
        HeaderFields.Udp udp = layout.dstPort() == 0 ? null : new HeaderFields.Udp(layout.srcPort(), layout.dstPort(),
                layout.udpLength(), buffer.getShort(layout.udpOffset() + 6) & 0xFFFF);
        if (kind != FrameLayout.Kind.ROCE) {
            return new DissectedPacket(frame, timestampNanos, data.length, linkType, kind, layout.reason(), eth, ip,
                    udp, null, null, null, null, null, 0, 0, false, null, null);
        }
        int b = layout.bthOffset();
        int roceLength = layout.roceLength();
        bthView.wrap(buffer, b);
        HeaderFields.Bth bth = new HeaderFields.Bth(bthView.opcode(), bthView.solicitedEvent(), bthView.migReq(),
                bthView.padCount(), bthView.transportVersion(), bthView.pkey(), bthView.fecn(), bthView.becn(),
                bthView.reserved6(), bthView.destQpn(), bthView.ackRequest(), bthView.reserved7(), bthView.psn());
        int icrcAt = b + roceLength - IcrcCalculator.LENGTH;
        int stored = IcrcCalculator.read(buffer, icrcAt);
        int computed = icrc.ofIpPacket(buffer, layout.ipOffset(), layout.ipPacketLength());
        byte[] trailer = Arrays.copyOfRange(data, layout.ipOffset() + layout.ipPacketLength(), data.length);

        Opcode opcode = Opcode.of(bth.opcode());
        String problem = null;
        List<Record> extensions = new ArrayList<>();
        byte[] payload = null;
        byte[] pad = null;
        if (opcode == null) {
            problem = String.format("unknown opcode 0x%02x", bth.opcode());
        } else if (roceLength < opcode.headerLength() + IcrcCalculator.LENGTH) {
            problem = String.format("%s needs %d header bytes and a 4-byte ICRC, but the packet has %d bytes",
                    opcode.displayName(), opcode.headerLength(), roceLength);
        } else {
            for (int i = 0; i < opcode.headerCount(); i++) {
                ExtensionHeader h = opcode.header(i);
                extensions.add(extension(h, buffer, b + opcode.offsetOf(h)));
            }
            int payloadStart = b + opcode.headerLength();
            int payloadAndPad = icrcAt - payloadStart;
            if (!opcode.hasPayload() && payloadAndPad != 0) {
                problem = String.format("%s carries no payload, but %d bytes follow its headers",
                        opcode.displayName(), payloadAndPad);
            } else if (bth.padCount() > payloadAndPad) {
                problem = String.format("pad count %d but only %d bytes after the headers", bth.padCount(), payloadAndPad);
            } else {
                int payloadLength = payloadAndPad - bth.padCount();
                payload = Arrays.copyOfRange(data, payloadStart, payloadStart + payloadLength);
                pad = Arrays.copyOfRange(data, payloadStart + payloadLength, icrcAt);
            }
        }
        if (problem != null) {
            payload = Arrays.copyOfRange(data, b + BthFlyweight.LENGTH, icrcAt);
            pad = new byte[0];
            extensions = List.of();
        }
        MadFields mad = null;
        if (problem == null && opcode == Opcode.UD_SEND_ONLY && bth.destQpn() == MadHeaderFlyweight.GSI_QPN) {
            // QP1 takes management datagrams only, and every one is 256 bytes: anything else is a broken MAD
            // (the headers before it stay decoded).
            if (payload.length == MadHeaderFlyweight.MAD_LENGTH) {
                mad = madDissector.decode(payload);
            } else {
                problem = String.format("a MAD is %d bytes, but this one to QP1 has %d", MadHeaderFlyweight.MAD_LENGTH,
                        payload.length);
            }
        }
        return new DissectedPacket(frame, timestampNanos, data.length, linkType,
                problem == null ? FrameLayout.Kind.ROCE : FrameLayout.Kind.MALFORMED, problem, eth, ip, udp, bth,
                opcode, List.copyOf(extensions), payload, pad, stored, computed, true, trailer, mad);
    }

    private Record extension(ExtensionHeader header, ByteBuffer buffer, int at) {
        return switch (header) {
            case RETH -> {
                reth.wrap(buffer, at);
                yield new HeaderFields.Reth(reth.virtualAddress(), reth.rkey(), reth.dmaLength());
            }
            case AETH -> {
                aeth.wrap(buffer, at);
                yield new HeaderFields.Aeth(aeth.syndrome(), aeth.msn());
            }
            case ATOMIC_ETH -> {
                atomicEth.wrap(buffer, at);
                yield new HeaderFields.AtomicEth(atomicEth.virtualAddress(), atomicEth.rkey(), atomicEth.swapAdd(),
                        atomicEth.compare());
            }
            case ATOMIC_ACK_ETH -> new HeaderFields.AtomicAckEth(atomicAckEth.wrap(buffer, at).originalData());
            case IMMDT -> new HeaderFields.ImmDt(immDt.wrap(buffer, at).immediate());
            case IETH -> new HeaderFields.Ieth(ieth.wrap(buffer, at).rkey());
            case DETH -> {
                deth.wrap(buffer, at);
                yield new HeaderFields.Deth(deth.qkey(), deth.reserved(), deth.srcQpn());
            }
            case FETH -> new HeaderFields.Feth(feth.wrap(buffer, at).bits());
            case CNP_RESERVED -> {
                byte[] bytes = new byte[header.length()];
                buffer.get(at, bytes);
                yield new HeaderFields.CnpReserved(bytes);
            }
        };
    }

    private boolean hasWholeIpHeader(int frameLength) {
        int v = layout.ipVersion();
        int needed = v == 4 ? IcrcCalculator.IPV4_HEADER_LENGTH : v == 6 ? IcrcCalculator.IPV6_HEADER_LENGTH : Integer.MAX_VALUE;
        return v != 0 && frameLength - layout.ipOffset() >= needed;
    }

    private HeaderFields.Ip ip(ByteBuffer buffer) {
        int at = layout.ipOffset();
        if (layout.ipVersion() == 4) {
            byte[] src = new byte[4];
            byte[] dst = new byte[4];
            buffer.get(at + 12, src);
            buffer.get(at + 16, dst);
            return new HeaderFields.Ip(4, src, dst, buffer.get(at + 1) & 0xFF, 0, buffer.get(at + 8) & 0xFF,
                    buffer.getShort(at + 4) & 0xFFFF, buffer.getShort(at + 6) & 0xFFFF, buffer.getShort(at + 10) & 0xFFFF);
        }
        byte[] src = new byte[16];
        byte[] dst = new byte[16];
        buffer.get(at + 8, src);
        buffer.get(at + 24, dst);
        int first = buffer.getInt(at);
        return new HeaderFields.Ip(6, src, dst, (first >>> 20) & 0xFF, first & 0xFFFFF, buffer.get(at + 7) & 0xFF,
                0, 0, 0);
    }

    private static long mac(ByteBuffer buffer, int at) {
        return (buffer.getInt(at) & 0xFFFF_FFFFL) << 16 | (buffer.getShort(at + 4) & 0xFFFFL);
    }
}
