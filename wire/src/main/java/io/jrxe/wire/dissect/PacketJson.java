package io.jrxe.wire.dissect;

import io.jrxe.wire.header.AethSyndrome;

/**
 * One JSON object per packet, for scripts. Numbers are JSON numbers (64-bit values as unsigned
 * decimals); the extension headers are nested objects named after them (reth, aeth, ...), and so are
 * a MAD's header ("mad") and CM message ("cm").
 */
public final class PacketJson {
    private PacketJson() {
    }

    public static String of(DissectedPacket p) {
        JsonWriter j = new JsonWriter();
        j.field("frame", p.frame());
        j.raw("time", Formats.time(p.timestampNanos()));
        j.field("length", p.capturedLength());
        j.field("kind", p.kind().name().toLowerCase());
        if (p.malformedReason() != null) {
            j.field("malformed", p.malformedReason());
        }
        if (p.ip() != null) {
            j.field("src", Formats.ip(p.ip().src()));
            j.field("dst", Formats.ip(p.ip().dst()));
            if (p.ip().version() == 4) {
                j.field("ip_id", p.ip().identification());
            }
        }
        if (p.udp() != null) {
            j.field("sport", p.udp().srcPort());
            j.field("dport", p.udp().dstPort());
        }
        if (p.isRoce()) {
            var b = p.bth();
            j.field("opcode", b.opcode());
            j.field("opcode_name", p.opcode() == null ? "unknown" : p.opcode().displayName());
            j.field("se", b.solicitedEvent());
            j.field("migreq", b.migReq());
            j.field("pad_count", b.padCount());
            j.field("tver", b.transportVersion());
            j.field("pkey", b.pkey());
            j.field("fecn", b.fecn());
            j.field("becn", b.becn());
            j.field("dest_qpn", b.destQpn());
            j.field("ack_req", b.ackRequest());
            j.field("psn", b.psn());
            for (Record r : p.extensions()) {
                extension(j, r);
            }
            if (p.payload() != null) {
                j.field("payload_length", p.payload().length);
            }
            if (p.mad() != null) {
                CmJson.append(j, p.mad());
            }
            j.field("icrc", Integer.toUnsignedLong(p.icrcStored()));
            j.field("icrc_ok", p.icrcOk());
        }
        return j.close();
    }

    private static void extension(JsonWriter j, Record r) {
        switch (r) {
            case HeaderFields.Reth h -> j.open("reth").u64("va", h.virtualAddress()).field("rkey", Integer.toUnsignedLong(h.rkey()))
                    .field("dma_len", h.dmaLength()).end();
            case HeaderFields.Aeth h -> j.open("aeth").field("syndrome", h.syndrome())
                    .field("type", switch (AethSyndrome.type(h.syndrome())) {
                        case AethSyndrome.TYPE_ACK -> "ack";
                        case AethSyndrome.TYPE_RNR_NAK -> "rnr_nak";
                        case AethSyndrome.TYPE_NAK -> "nak";
                        default -> "reserved";
                    })
                    .field("value", AethSyndrome.value(h.syndrome()))
                    .field("text", AethSyndrome.describe(h.syndrome())).field("msn", h.msn()).end();
            case HeaderFields.AtomicEth h -> j.open("atomiceth").u64("va", h.virtualAddress())
                    .field("rkey", Integer.toUnsignedLong(h.rkey())).u64("swap_add", h.swapAdd()).u64("compare", h.compare()).end();
            case HeaderFields.AtomicAckEth h -> j.open("atomicacketh").u64("orig", h.originalData()).end();
            case HeaderFields.ImmDt h -> j.field("immdt", Integer.toUnsignedLong(h.immediate()));
            case HeaderFields.Ieth h -> j.open("ieth").field("rkey", Integer.toUnsignedLong(h.rkey())).end();
            case HeaderFields.Deth h -> j.open("deth").field("qkey", Integer.toUnsignedLong(h.qkey())).field("src_qpn", h.srcQpn()).end();
            case HeaderFields.Feth h -> j.open("feth").field("selectivity_level", (h.bits() >>> 4) & 3)
                    .field("placement_type", h.bits() & 0xF).end();
            case HeaderFields.CnpReserved h -> j.field("cnp", true);
            default -> {
            }
        }
    }
}
