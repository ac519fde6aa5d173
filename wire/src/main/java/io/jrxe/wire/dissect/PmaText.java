package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.CmField;
import io.jrxe.wire.pma.PerfMgmt;

import java.util.List;

/**
 * How the dissector shows a PerfMgmt MAD: a summary with its attribute, status and traffic counters,
 * and a detail paragraph with every field of the attribute under its IBTA name.
 */
final class PmaText {
    private static final String INDENT = "            ";
    /** The counters a summary line shows, by field name, under the short name it shows them. */
    private static final List<String[]> SHOWN = List.of(new String[] {"port_xmit_data", "xmit_data"},
            new String[] {"port_rcv_data", "rcv_data"}, new String[] {"port_xmit_pkts", "xmit_pkts"},
            new String[] {"port_rcv_pkts", "rcv_pkts"}, new String[] {"capability_mask", "cap_mask"});

    private PmaText() {
    }

    /** "PerfMgmt GetResp PortCounters tid=0x... xmit_data=1 rcv_data=2 ...", and the status when it is not 0. */
    static String summary(MadFields mad) {
        StringBuilder sb = new StringBuilder(128).append("PerfMgmt ").append(CmText.method(mad.method())).append(' ')
                .append(attribute(mad)).append(String.format(" tid=0x%016x", mad.transactionId()));
        if (mad.status() != 0) {
            sb.append(' ').append(status(mad.status()));
        }
        for (String[] shown : SHOWN) {
            MadFields.CmValue v = mad.pmaValue(shown[0]);
            if (v != null) {
                sb.append(' ').append(shown[1]).append('=').append(CmText.detail(v));
            }
        }
        return sb.toString();
    }

    static void appendDetail(StringBuilder sb, MadFields mad) {
        if (mad.pmaAttribute() == null) {
            return;
        }
        sb.append(String.format("  PerfMgmt  %s%s%n", mad.pmaAttribute().displayName(),
                mad.status() == 0 ? "" : "  " + status(mad.status())));
        for (MadFields.CmValue v : mad.pma()) {
            if (v.field().kind() == CmField.Kind.RESERVED && v.number() == 0) {
                continue;
            }
            sb.append(String.format("%s%-32s %s%n", INDENT, v.field().label(), CmText.detail(v)));
        }
    }

    static String attribute(MadFields mad) {
        return mad.pmaAttribute() == null ? String.format("attribute 0x%04x", mad.attributeId())
                : mad.pmaAttribute().displayName();
    }

    static String status(int status) {
        return PerfMgmt.describeStatus(status);
    }
}
