package io.jrxe.wire.dissect;

import io.jrxe.wire.cm.CmAttribute;

import java.util.List;
import java.util.Map;

/**
 * The MAD part of a summary line: "CM ConnectRequest (REQ)" and the fields that tell one
 * connection's messages apart (communication IDs, QPN, PSN, service, reason), then for an IP CM
 * REQ who connects to whom.
 */
final class CmSummary {
    /** Per message: which fields the summary shows, under which short name. */
    private static final Map<CmAttribute, List<String[]>> SHOWN = Map.ofEntries(
            Map.entry(CmAttribute.REQ, List.of(n("local_comm_id", "comm_id"), n("service_id", "service"),
                    n("local_qpn", "qpn"), n("starting_psn", "psn"), n("path_mtu", "mtu"),
                    n("responder_resources", "resp_res"), n("initiator_depth", "init_depth"), n("retry_count", "retry"),
                    n("rnr_retry_count", "rnr_retry"))),
            Map.entry(CmAttribute.MRA, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"),
                    n("message_mraed", "mraed"), n("service_timeout", "service_timeout"))),
            Map.entry(CmAttribute.REJ, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"),
                    n("message_rejected", "rejects"), n("reason", "reason"))),
            Map.entry(CmAttribute.REP, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"),
                    n("local_qpn", "qpn"), n("starting_psn", "psn"), n("responder_resources", "resp_res"),
                    n("initiator_depth", "init_depth"), n("rnr_retry_count", "rnr_retry"))),
            Map.entry(CmAttribute.RTU, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"))),
            Map.entry(CmAttribute.DREQ, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"),
                    n("remote_qpn_eecn", "remote_qpn"))),
            Map.entry(CmAttribute.DREP, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"))),
            Map.entry(CmAttribute.SIDR_REQ, List.of(n("request_id", "request_id"), n("service_id", "service"))),
            Map.entry(CmAttribute.SIDR_REP, List.of(n("request_id", "request_id"), n("status", "status"),
                    n("qpn", "qpn"), n("qkey", "qkey"), n("service_id", "service"))),
            Map.entry(CmAttribute.LAP, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"),
                    n("remote_qpn_eecn", "remote_qpn"))),
            Map.entry(CmAttribute.APR, List.of(n("local_comm_id", "comm_id"), n("remote_comm_id", "remote_comm_id"),
                    n("ap_status", "ap_status"))));

    private CmSummary() {
    }

    private static String[] n(String field, String shortName) {
        return new String[] {field, shortName};
    }

    static String of(MadFields mad) {
        if (mad.isPerfMgmt()) {
            return PmaText.summary(mad);
        }
        if (!mad.isCm()) {
            return String.format("MAD %s %s attr=0x%04x tid=0x%016x", CmText.managementClass(mad.managementClass()),
                    CmText.method(mad.method()), mad.attributeId(), mad.transactionId());
        }
        StringBuilder sb = new StringBuilder(160).append("CM ").append(CmText.attribute(mad));
        // Map.of refuses a null key even in a lookup, and an unknown attribute has none.
        List<String[]> fields = mad.cmAttribute() == null ? List.of() : SHOWN.getOrDefault(mad.cmAttribute(), List.of());
        for (String[] shown : fields) {
            MadFields.CmValue v = mad.value(shown[0]);
            sb.append(' ').append(shown[1]).append('=').append(CmText.brief(v));
        }
        if (mad.ipCm() != null) {
            sb.append(' ').append(CmText.endpoints(mad.ipCm()));
        }
        return sb.toString();
    }
}
