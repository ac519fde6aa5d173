package io.jrxe.wire.dissect;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.AethSyndrome;

import java.util.HexFormat;

/** The detail view of a packet: every field of every header, one header per paragraph. */
public final class PacketDetail {
    private PacketDetail() {
    }

    public static String of(DissectedPacket p) {
        StringBuilder sb = new StringBuilder(512);
        sb.append("Frame ").append(p.frame()).append(": ").append(p.capturedLength()).append(" bytes, ")
                .append(LinkType.name(p.linkType())).append(", time ").append(Formats.time(p.timestampNanos())).append('\n');
        if (p.ethernet() != null) {
            var e = p.ethernet();
            sb.append(String.format("  Ethernet  src %s  dst %s  type 0x%04x%n", Formats.mac(e.srcMac()), Formats.mac(e.dstMac()), e.etherType()));
        }
        if (p.ip() != null) {
            var ip = p.ip();
            if (ip.version() == 4) {
                sb.append(String.format("  IPv4      src %s  dst %s  tos 0x%02x  id 0x%04x  flags 0x%x%s  frag %d  ttl %d  checksum 0x%04x%n",
                        Formats.ip(ip.src()), Formats.ip(ip.dst()), ip.tos(), ip.identification(), ip.flagsFragment() >>> 13,
                        (ip.flagsFragment() & 0x4000) != 0 ? " (DF)" : "", ip.flagsFragment() & 0x1FFF, ip.ttl(), ip.checksum()));
            } else {
                sb.append(String.format("  IPv6      src %s  dst %s  traffic class 0x%02x  flow label 0x%05x  hop limit %d%n",
                        Formats.ip(ip.src()), Formats.ip(ip.dst()), ip.tos(), ip.flowLabel(), ip.ttl()));
            }
            sb.append(String.format("            DSCP %d  ECN %d (%s)%n", Ecn.dscp(ip.tos()), Ecn.of(ip.tos()),
                    Ecn.name(Ecn.of(ip.tos()))));
        }
        if (p.udp() != null) {
            var u = p.udp();
            sb.append(String.format("  UDP       src port %d  dst port %d  length %d  checksum 0x%04x%n",
                    u.srcPort(), u.dstPort(), u.length(), u.checksum()));
        }
        if (p.isRoce()) {
            var b = p.bth();
            sb.append(String.format("  BTH       opcode 0x%02x (%s)%n", b.opcode(),
                    p.opcode() == null ? "unknown" : p.opcode().displayName()));
            sb.append(String.format("            solicited event %d  migreq %d  pad count %d  transport version %d%n",
                    b.solicitedEvent() ? 1 : 0, b.migReq() ? 1 : 0, b.padCount(), b.transportVersion()));
            sb.append(String.format("            P_Key 0x%04x  FECN %d  BECN %d  reserved 0x%02x%n",
                    b.pkey(), b.fecn() ? 1 : 0, b.becn() ? 1 : 0, b.reserved6()));
            sb.append(String.format("            destination QP 0x%06x  ack request %d  reserved 0x%02x  PSN %d (0x%06x)%n",
                    b.destQpn(), b.ackRequest() ? 1 : 0, b.reserved7(), b.psn(), b.psn()));
            for (Record r : p.extensions()) {
                sb.append(extension(r));
            }
            if (p.payload() != null) {
                sb.append("  Payload   ").append(p.payload().length).append(" bytes");
                if (p.payload().length > 0) {
                    int shown = Math.min(32, p.payload().length);
                    sb.append(": ").append(HexFormat.ofDelimiter(" ").formatHex(p.payload(), 0, shown));
                    if (shown < p.payload().length) {
                        sb.append(" ...");
                    }
                }
                sb.append('\n');
            }
            if (p.mad() != null) {
                CmDetail.append(sb, p.mad());
            }
            if (p.pad() != null && p.pad().length > 0) {
                sb.append("  Pad       ").append(HexFormat.ofDelimiter(" ").formatHex(p.pad())).append('\n');
            }
            sb.append(String.format("  ICRC      0x%08x (%s)%n", p.icrcStored(),
                    p.icrcOk() ? "correct" : String.format("BAD, computed 0x%08x", p.icrcComputed())));
        }
        if (p.malformedReason() != null) {
            sb.append("  MALFORMED ").append(p.malformedReason()).append('\n');
        } else if (!p.isRoce()) {
            sb.append("  not a RoCEv2 packet\n");
        }
        return sb.toString();
    }

    private static String extension(Record r) {
        return switch (r) {
            case HeaderFields.Reth h -> String.format("  RETH      virtual address 0x%016x  R_Key 0x%08x  DMA length %d%n",
                    h.virtualAddress(), h.rkey(), h.dmaLength());
            case HeaderFields.Aeth h -> String.format("  AETH      syndrome 0x%02x (%s)  MSN %d%n",
                    h.syndrome(), AethSyndrome.describe(h.syndrome()), h.msn());
            case HeaderFields.AtomicEth h -> String.format(
                    "  AtomicETH virtual address 0x%016x  R_Key 0x%08x  swap/add 0x%016x  compare 0x%016x%n",
                    h.virtualAddress(), h.rkey(), h.swapAdd(), h.compare());
            case HeaderFields.AtomicAckEth h -> String.format("  AtomicAckETH original remote data 0x%016x%n", h.originalData());
            case HeaderFields.ImmDt h -> String.format("  ImmDt     0x%08x%n", h.immediate());
            case HeaderFields.Ieth h -> String.format("  IETH      R_Key 0x%08x%n", h.rkey());
            case HeaderFields.Deth h -> String.format("  DETH      Q_Key 0x%08x  reserved 0x%02x  source QP 0x%06x%n",
                    h.qkey(), h.reserved(), h.srcQpn());
            case HeaderFields.Feth h -> String.format("  FETH      0x%08x  selectivity level %d  placement type 0x%x%n",
                    h.bits(), (h.bits() >>> 4) & 3, h.bits() & 0xF);
            case HeaderFields.CnpReserved h -> "  CNP       reserved " + HexFormat.of().formatHex(h.bytes()) + "\n";
            default -> "  " + r + "\n";
        };
    }
}
