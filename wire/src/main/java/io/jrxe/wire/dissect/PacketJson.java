package io.jrxe.wire.dissect;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.json.Json;

import java.io.IOException;

import static io.jrxe.wire.json.Json.unsignedField;

/**
 * One JSON object per packet, for scripts. Numbers are JSON numbers (64-bit values as unsigned
 * decimals); the extension headers are nested objects named after them (reth, aeth, ...), and so are
 * a MAD's header ("mad") and CM message ("cm"). "dscp" and "ecn" are the IP header's DSCP and ECN
 * codepoint (0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE).
 */
public final class PacketJson {
    private PacketJson() {
    }

    public static String of(DissectedPacket p) {
        return Json.text(g -> write(g, p));
    }

    /** The packet's object, as a value of whatever {@code g} is writing (view's page data nests it). */
    public static void write(JsonGenerator g, DissectedPacket p) throws IOException {
        g.writeStartObject();
        g.writeNumberField("frame", p.frame());
        g.writeFieldName("time");
        g.writeNumber(Formats.time(p.timestampNanos()));
        g.writeNumberField("length", p.capturedLength());
        g.writeStringField("kind", p.kind().name().toLowerCase());
        if (p.malformedReason() != null) {
            g.writeStringField("malformed", p.malformedReason());
        }
        if (p.ip() != null) {
            g.writeStringField("src", Formats.ip(p.ip().src()));
            g.writeStringField("dst", Formats.ip(p.ip().dst()));
            if (p.ip().version() == 4) {
                g.writeNumberField("ip_id", p.ip().identification());
            }
            g.writeNumberField("dscp", Ecn.dscp(p.ip().tos()));
            g.writeNumberField("ecn", Ecn.of(p.ip().tos()));
        }
        if (p.udp() != null) {
            g.writeNumberField("sport", p.udp().srcPort());
            g.writeNumberField("dport", p.udp().dstPort());
        }
        if (p.isRoce()) {
            var b = p.bth();
            g.writeNumberField("opcode", b.opcode());
            g.writeStringField("opcode_name", p.opcode() == null ? "unknown" : p.opcode().displayName());
            g.writeBooleanField("se", b.solicitedEvent());
            g.writeBooleanField("migreq", b.migReq());
            g.writeNumberField("pad_count", b.padCount());
            g.writeNumberField("tver", b.transportVersion());
            g.writeNumberField("pkey", b.pkey());
            g.writeBooleanField("fecn", b.fecn());
            g.writeBooleanField("becn", b.becn());
            g.writeNumberField("dest_qpn", b.destQpn());
            g.writeBooleanField("ack_req", b.ackRequest());
            g.writeNumberField("psn", b.psn());
            for (Record r : p.extensions()) {
                extension(g, r);
            }
            if (p.payload() != null) {
                g.writeNumberField("payload_length", p.payload().length);
            }
            if (p.mad() != null) {
                CmJson.write(g, p.mad());
            }
            g.writeNumberField("icrc", Integer.toUnsignedLong(p.icrcStored()));
            g.writeBooleanField("icrc_ok", p.icrcOk());
        }
        g.writeEndObject();
    }

    private static void extension(JsonGenerator g, Record r) throws IOException {
        switch (r) {
            case HeaderFields.Reth h -> {
                g.writeObjectFieldStart("reth");
                unsignedField(g, "va", h.virtualAddress());
                g.writeNumberField("rkey", Integer.toUnsignedLong(h.rkey()));
                g.writeNumberField("dma_len", h.dmaLength());
                g.writeEndObject();
            }
            case HeaderFields.Aeth h -> {
                g.writeObjectFieldStart("aeth");
                g.writeNumberField("syndrome", h.syndrome());
                g.writeStringField("type", switch (AethSyndrome.type(h.syndrome())) {
                    case AethSyndrome.TYPE_ACK -> "ack";
                    case AethSyndrome.TYPE_RNR_NAK -> "rnr_nak";
                    case AethSyndrome.TYPE_NAK -> "nak";
                    default -> "reserved";
                });
                g.writeNumberField("value", AethSyndrome.value(h.syndrome()));
                g.writeStringField("text", AethSyndrome.describe(h.syndrome()));
                g.writeNumberField("msn", h.msn());
                g.writeEndObject();
            }
            case HeaderFields.AtomicEth h -> {
                g.writeObjectFieldStart("atomiceth");
                unsignedField(g, "va", h.virtualAddress());
                g.writeNumberField("rkey", Integer.toUnsignedLong(h.rkey()));
                unsignedField(g, "swap_add", h.swapAdd());
                unsignedField(g, "compare", h.compare());
                g.writeEndObject();
            }
            case HeaderFields.AtomicAckEth h -> {
                g.writeObjectFieldStart("atomicacketh");
                unsignedField(g, "orig", h.originalData());
                g.writeEndObject();
            }
            case HeaderFields.ImmDt h -> g.writeNumberField("immdt", Integer.toUnsignedLong(h.immediate()));
            case HeaderFields.Ieth h -> {
                g.writeObjectFieldStart("ieth");
                g.writeNumberField("rkey", Integer.toUnsignedLong(h.rkey()));
                g.writeEndObject();
            }
            case HeaderFields.Deth h -> {
                g.writeObjectFieldStart("deth");
                g.writeNumberField("qkey", Integer.toUnsignedLong(h.qkey()));
                g.writeNumberField("src_qpn", h.srcQpn());
                g.writeEndObject();
            }
            case HeaderFields.Feth h -> {
                g.writeObjectFieldStart("feth");
                g.writeNumberField("selectivity_level", (h.bits() >>> 4) & 3);
                g.writeNumberField("placement_type", h.bits() & 0xF);
                g.writeEndObject();
            }
            case HeaderFields.CnpReserved h -> g.writeBooleanField("cnp", true);
            default -> {
            }
        }
    }
}
