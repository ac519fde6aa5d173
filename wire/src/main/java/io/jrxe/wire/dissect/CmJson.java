package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.AlternatePathStatus;
import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.cm.IpCmServiceId;
import io.jrxe.wire.cm.PortSpace;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.cm.SidrStatus;

import java.util.HexFormat;

/**
 * The MAD's JSON: a "mad" object with the common header and, for the CM class, a "cm" object
 * named after the message ({@code "message": "REQ"}) with every field under its snake-case name
 * (numbers as numbers, GIDs as addresses, byte runs as hex; reserved bits only when set), a
 * "_name" beside each code that has a meaning, and the IP CM header as "ip_cm".
 */
final class CmJson {
    private CmJson() {
    }

    static void append(JsonWriter j, MadFields mad) {
        j.open("mad")
                .field("base_version", mad.baseVersion())
                .field("mgmt_class", mad.managementClass())
                .field("class_version", mad.classVersion())
                .field("method", mad.method())
                .field("status", mad.status())
                .field("class_specific", mad.classSpecific())
                .u64("transaction_id", mad.transactionId())
                .field("attribute_id", mad.attributeId());
        if (mad.reserved() != 0) {
            j.field("reserved", mad.reserved());
        }
        j.field("attribute_modifier", Integer.toUnsignedLong(mad.attributeModifier())).end();
        if (!mad.isCm()) {
            return;
        }
        j.open("cm").field("message", mad.cmAttribute() == null ? "unknown" : mad.cmAttribute().shortName());
        if (mad.cmAttribute() != null) {
            j.field("name", mad.cmAttribute().longName());
        }
        for (MadFields.CmValue v : mad.cm()) {
            field(j, v);
        }
        if (mad.ipCm() != null) {
            ipCm(j, mad.ipCm());
        }
        j.end();
    }

    private static void field(JsonWriter j, MadFields.CmValue v) {
        CmField f = v.field();
        long n = v.number();
        switch (f.kind()) {
            case RESERVED -> {
                if (n != 0) {
                    j.field(f.name(), n);
                }
            }
            case GID -> j.field(f.name(), Formats.ip(v.bytes()));
            case BYTES -> j.field(f.name(), HexFormat.of().formatHex(v.bytes()));
            case SERVICE_ID -> {
                j.u64(f.name(), n);
                if (IpCmServiceId.portSpace(n) != null) {
                    j.field("service", IpCmServiceId.describe(n));
                }
            }
            case MTU -> j.field(f.name(), n).field(f.name() + "_bytes", CmText.mtu(n).equals("invalid") ? 0 : 128L << n);
            case REJECT_REASON -> j.field(f.name(), n).field(f.name() + "_name", RejectReason.describe((int) n));
            case MESSAGE -> j.field(f.name(), n).field(f.name() + "_name", CmText.message(n));
            case AP_STATUS -> j.field(f.name(), n).field(f.name() + "_name", AlternatePathStatus.describe((int) n));
            case SIDR_STATUS -> j.field(f.name(), n).field(f.name() + "_name", SidrStatus.describe((int) n));
            case FLAG -> j.field(f.name(), n != 0);
            default -> j.u64(f.name(), n);
        }
    }

    private static void ipCm(JsonWriter j, MadFields.IpCm ip) {
        PortSpace space = IpCmServiceId.portSpace(ip.serviceId());
        j.open("ip_cm")
                .field("major_version", ip.majorVersion())
                .field("minor_version", ip.minorVersion())
                .field("ip_version", ip.ipVersion())
                .field("reserved", ip.reserved())
                .field("source_port", ip.sourcePort())
                .field("source", Formats.ip(ip.source()))
                .field("destination", Formats.ip(ip.destination()))
                .field("destination_port", IpCmServiceId.port(ip.serviceId()))
                .field("port_space", space == null ? "unknown" : space.name())
                .end();
    }
}
