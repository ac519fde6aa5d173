package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.CmField;

/**
 * The MAD paragraphs of the detail view: the common header, then a PerfMgmt attribute's fields
 * ({@link PmaText}), or for a CM message every field
 * in wire order, one a line (reserved bits only when they are not zero), then the IP CM header.
 */
final class CmDetail {
    private static final String INDENT = "            ";

    private CmDetail() {
    }

    static void append(StringBuilder sb, MadFields mad) {
        sb.append(String.format("  MAD       base version %d  class 0x%02x (%s)  class version %d  method 0x%02x (%s)%n",
                mad.baseVersion(), mad.managementClass(), CmText.managementClass(mad.managementClass()),
                mad.classVersion(), mad.method(), CmText.method(mad.method())));
        sb.append(String.format("%sstatus 0x%04x  class specific 0x%04x  transaction ID 0x%016x%n", INDENT,
                mad.status(), mad.classSpecific(), mad.transactionId()));
        sb.append(String.format("%sattribute ID 0x%04x%s  reserved 0x%04x  attribute modifier 0x%08x%n", INDENT,
                mad.attributeId(), mad.isCm() ? " (" + attributeName(mad) + ")" : "", mad.reserved(),
                mad.attributeModifier()));
        PmaText.appendDetail(sb, mad);
        if (mad.cmAttribute() == null || !mad.cmAttribute().isMessage()) {
            return;
        }
        sb.append(String.format("  CM %-6s %s%n", mad.cmAttribute().shortName(), mad.cmAttribute().longName()));
        for (MadFields.CmValue v : mad.cm()) {
            if (v.field().kind() == CmField.Kind.RESERVED && v.number() == 0) {
                continue;
            }
            String label = v.field().kind() == CmField.Kind.RESERVED
                    ? String.format("reserved (byte %d bit %d, %d bits)", v.field().byteOffset(), v.field().bitOffset(),
                    v.field().width())
                    : v.field().label();
            sb.append(String.format("%s%-32s %s%n", INDENT, label, CmText.detail(v)));
        }
        MadFields.IpCm ip = mad.ipCm();
        if (ip != null) {
            sb.append(String.format("  IP CM     version %d.%d  IPv%d  reserved 0x%x  %s%n", ip.majorVersion(),
                    ip.minorVersion(), ip.ipVersion(), ip.reserved(), CmText.endpoints(ip)));
        }
    }

    private static String attributeName(MadFields mad) {
        return mad.cmAttribute() == null ? "unknown" : mad.cmAttribute().longName();
    }
}
