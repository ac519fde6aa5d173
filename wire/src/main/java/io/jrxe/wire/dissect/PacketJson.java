package io.jrxe.wire.dissect;

import io.jrxe.wire.header.AethSyndrome;

/**
 * One JSON object per packet, for scripts. Numbers are JSON numbers (64-bit values as unsigned
 * decimals); the extension headers are nested objects named after them (reth, aeth, ...).
 */
public final class PacketJson {
    private PacketJson() {
    }

    public static String of(DissectedPacket p) {
        Json j = new Json();
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
            j.field("icrc", Integer.toUnsignedLong(p.icrcStored()));
            j.field("icrc_ok", p.icrcOk());
        }
        return j.close();
    }

    private static void extension(Json j, Record r) {
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

    /** A minimal JSON object writer: enough for flat fields and one level of nesting. */
    private static final class Json {
        private final StringBuilder sb = new StringBuilder(256).append('{');
        private boolean first = true;

        private Json key(String name) {
            if (!first) {
                sb.append(',');
            }
            first = false;
            sb.append('"').append(name).append("\":");
            return this;
        }

        Json field(String name, long value) {
            key(name).sb.append(value);
            return this;
        }

        Json field(String name, boolean value) {
            key(name).sb.append(value);
            return this;
        }

        Json field(String name, String value) {
            key(name).sb.append('"');
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '"' -> sb.append("\\\"");
                    case '\\' -> sb.append("\\\\");
                    case '\n' -> sb.append("\\n");
                    default -> {
                        if (c < 0x20) {
                            sb.append(String.format("\\u%04x", (int) c));
                        } else {
                            sb.append(c);
                        }
                    }
                }
            }
            sb.append('"');
            return this;
        }

        Json u64(String name, long value) {
            key(name).sb.append(Long.toUnsignedString(value));
            return this;
        }

        Json raw(String name, String jsonNumber) {
            key(name).sb.append(jsonNumber);
            return this;
        }

        Json open(String name) {
            key(name).sb.append('{');
            first = true;
            return this;
        }

        Json end() {
            sb.append('}');
            first = false;
            return this;
        }

        String close() {
            return sb.append('}').toString();
        }
    }
}
