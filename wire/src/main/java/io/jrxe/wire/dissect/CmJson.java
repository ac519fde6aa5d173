package io.jrxe.wire.dissect;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jrxe.wire.cm.AlternatePathStatus;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.IpCmServiceId;
import io.jrxe.wire.cm.PortSpace;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.cm.SidrStatus;

import java.io.IOException;
import java.util.HexFormat;

import static io.jrxe.wire.json.Json.unsignedField;

/**
 * The MAD's JSON: a "mad" object with the common header and, for the CM class, a "cm" object
 * named after the message ({@code "message": "REQ"}) with every field under its snake-case name
 * (numbers as numbers, GIDs as addresses, byte runs as hex; reserved bits only when set), a
 * "_name" beside each code that has a meaning, and the IP CM header as "ip_cm"; for a known PerfMgmt
 * attribute, a "pma" object with the attribute's name and fields.
 */
final class CmJson {
    private CmJson() {
    }

    static void write(JsonGenerator g, MadFields mad) throws IOException {
        g.writeObjectFieldStart("mad");
        g.writeNumberField("base_version", mad.baseVersion());
        g.writeNumberField("mgmt_class", mad.managementClass());
        g.writeNumberField("class_version", mad.classVersion());
        g.writeNumberField("method", mad.method());
        g.writeNumberField("status", mad.status());
        g.writeNumberField("class_specific", mad.classSpecific());
        unsignedField(g, "transaction_id", mad.transactionId());
        g.writeNumberField("attribute_id", mad.attributeId());
        if (mad.reserved() != 0) {
            g.writeNumberField("reserved", mad.reserved());
        }
        g.writeNumberField("attribute_modifier", Integer.toUnsignedLong(mad.attributeModifier()));
        g.writeEndObject();
        if (mad.pmaAttribute() != null) {
            pma(g, mad);
        }
        if (!mad.isCm()) {
            return;
        }
        g.writeObjectFieldStart("cm");
        g.writeStringField("message", mad.cmAttribute() == null ? "unknown" : mad.cmAttribute().shortName());
        if (mad.cmAttribute() != null) {
            g.writeStringField("name", mad.cmAttribute().longName());
        }
        for (MadFields.CmValue v : mad.cm()) {
            field(g, v);
        }
        if (mad.ipCm() != null) {
            ipCm(g, mad.ipCm());
        }
        g.writeEndObject();
    }

    private static void field(JsonGenerator g, MadFields.CmValue v) throws IOException {
        CmField f = v.field();
        long n = v.number();
        switch (f.kind()) {
            case RESERVED -> {
                if (n != 0) {
                    g.writeNumberField(f.name(), n);
                }
            }
            case GID -> g.writeStringField(f.name(), Formats.ip(v.bytes()));
            case BYTES -> g.writeStringField(f.name(), HexFormat.of().formatHex(v.bytes()));
            case SERVICE_ID -> {
                unsignedField(g, f.name(), n);
                if (IpCmServiceId.portSpace(n) != null) {
                    g.writeStringField("service", IpCmServiceId.describe(n));
                }
            }
            case MTU -> {
                g.writeNumberField(f.name(), n);
                g.writeNumberField(f.name() + "_bytes", CmText.mtu(n).equals("invalid") ? 0 : 128L << n);
            }
            case REJECT_REASON -> named(g, f, n, RejectReason.describe((int) n));
            case MESSAGE -> named(g, f, n, CmText.message(n));
            case AP_STATUS -> named(g, f, n, AlternatePathStatus.describe((int) n));
            case SIDR_STATUS -> named(g, f, n, SidrStatus.describe((int) n));
            case FLAG -> g.writeBooleanField(f.name(), n != 0);
            default -> unsignedField(g, f.name(), n);
        }
    }

    /** The PerfMgmt attribute as "pma": its name, then every field (numbers as numbers, GIDs as addresses). */
    private static void pma(JsonGenerator g, MadFields mad) throws IOException {
        g.writeObjectFieldStart("pma");
        g.writeStringField("attribute", mad.pmaAttribute().displayName());
        for (MadFields.CmValue v : mad.pma()) {
            field(g, v);
        }
        g.writeEndObject();
    }

    /** A code and, beside it as "NAME_name", what it means. */
    private static void named(JsonGenerator g, CmField f, long code, String meaning) throws IOException {
        g.writeNumberField(f.name(), code);
        g.writeStringField(f.name() + "_name", meaning);
    }

    private static void ipCm(JsonGenerator g, MadFields.IpCm ip) throws IOException {
        PortSpace space = IpCmServiceId.portSpace(ip.serviceId());
        g.writeObjectFieldStart("ip_cm");
        g.writeNumberField("major_version", ip.majorVersion());
        g.writeNumberField("minor_version", ip.minorVersion());
        g.writeNumberField("ip_version", ip.ipVersion());
        g.writeNumberField("reserved", ip.reserved());
        g.writeNumberField("source_port", ip.sourcePort());
        g.writeStringField("source", Formats.ip(ip.source()));
        g.writeStringField("destination", Formats.ip(ip.destination()));
        g.writeNumberField("destination_port", IpCmServiceId.port(ip.serviceId()));
        g.writeStringField("port_space", space == null ? "unknown" : space.name());
        g.writeEndObject();
    }
}
