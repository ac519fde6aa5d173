package io.jrxe.wire.dissect;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.header.AethSyndrome;

/**
 * The one-line summary of a packet: addresses, the ECN codepoint unless Not-ECT, transport and opcode, QPN, PSN, A bit, each extension header, the
 * MAD of a packet to QP1 (a CM message by name), ICRC.
 */
public final class PacketSummary {
    private PacketSummary() {
    }

    public static String of(DissectedPacket p) {
        StringBuilder sb = new StringBuilder(160);
        sb.append(String.format("%6d  ", p.frame()));
        if (p.ip() != null) {
            endpoint(sb, p.ip().src(), p.udp() == null ? -1 : p.udp().srcPort());
            sb.append(" -> ");
            endpoint(sb, p.ip().dst(), p.udp() == null ? -1 : p.udp().dstPort());
            sb.append("  ");
        }
        if (!p.isRoce()) {
            sb.append(p.kind() == FrameLayout.Kind.MALFORMED ? "MALFORMED: " + p.malformedReason() : "not RoCEv2");
            return sb.toString();
        }
        var bth = p.bth();
        // Most RoCE traffic is Not-ECT: the codepoint is shown only where a sender or a switch set one.
        if (p.ip() != null && Ecn.of(p.ip().tos()) != Ecn.NOT_ECT) {
            sb.append(Ecn.name(Ecn.of(p.ip().tos()))).append("  ");
        }
        sb.append(p.opcode() != null ? p.opcode().displayName() : String.format("opcode 0x%02x", bth.opcode()));
        sb.append("  qp=").append(Formats.qpn(bth.destQpn()));
        sb.append(" psn=").append(bth.psn());
        sb.append(" A=").append(bth.ackRequest() ? 1 : 0);
        if (bth.solicitedEvent()) {
            sb.append(" SE");
        }
        for (Record r : p.extensions()) {
            sb.append("  ").append(extension(r));
        }
        if (p.payload() != null && p.opcode() != null && p.opcode().hasPayload()) {
            sb.append("  payload=").append(p.payload().length);
        }
        if (p.mad() != null) {
            sb.append("  ").append(CmSummary.of(p.mad()));
        }
        sb.append("  icrc=").append(p.icrcOk() ? "ok" : String.format("BAD(stored %08x, computed %08x)",
                p.icrcStored(), p.icrcComputed()));
        if (p.kind() == FrameLayout.Kind.MALFORMED) {
            sb.append("  MALFORMED: ").append(p.malformedReason());
        }
        return sb.toString();
    }

    /** 10.0.0.1:4791, or [fd77::2]:4791 so that an IPv6 address and its port stay apart. */
    private static void endpoint(StringBuilder sb, byte[] address, int port) {
        boolean v6 = address.length == 16 && port >= 0;
        sb.append(v6 ? "[" : "").append(Formats.ip(address)).append(v6 ? "]" : "");
        if (port >= 0) {
            sb.append(':').append(port);
        }
    }

    static String extension(Record r) {
        return switch (r) {
            case HeaderFields.Reth h -> String.format("RETH va=0x%x rkey=0x%08x len=%d", h.virtualAddress(), h.rkey(), h.dmaLength());
            case HeaderFields.Aeth h -> "AETH " + AethSyndrome.describe(h.syndrome()) + " msn=" + h.msn();
            case HeaderFields.AtomicEth h -> String.format("AtomicETH va=0x%x rkey=0x%08x swap_add=0x%x compare=0x%x",
                    h.virtualAddress(), h.rkey(), h.swapAdd(), h.compare());
            case HeaderFields.AtomicAckEth h -> String.format("AtomicAckETH orig=0x%x", h.originalData());
            case HeaderFields.ImmDt h -> String.format("ImmDt=0x%08x", h.immediate());
            case HeaderFields.Ieth h -> String.format("IETH rkey=0x%08x", h.rkey());
            case HeaderFields.Deth h -> String.format("DETH qkey=0x%08x src_qp=0x%06x", h.qkey(), h.srcQpn());
            case HeaderFields.Feth h -> String.format("FETH selectivity=%d placement=0x%x", (h.bits() >>> 4) & 3, h.bits() & 0xF);
            case HeaderFields.CnpReserved h -> "reserved=" + (java.util.Arrays.equals(h.bytes(), new byte[h.bytes().length])
                    ? "0" : java.util.HexFormat.of().formatHex(h.bytes()));
            default -> r.toString();
        };
    }
}
