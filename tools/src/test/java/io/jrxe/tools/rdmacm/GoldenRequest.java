package io.jrxe.tools.rdmacm;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.dissect.StrictJson;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A jrxe tool's connection request (REQ) beside the kernel's for the same program (testdata/rxe-cm), both as
 * `jrxe decode --json` reads them: every field that says how the connection is made must be the same (MAD
 * header, retry counts, resources, timeouts, MTU, path fields, the IP CM header's layout); the fields that name
 * this connection (IDs, QPN, PSN, GUID, GIDs, flow label, ports, addresses) may differ.
 */
final class GoldenRequest {
    static final List<String> MAD_FIELDS = List.of("base_version", "mgmt_class", "class_version", "method", "status",
            "class_specific", "attribute_id", "attribute_modifier");
    static final List<String> REQ_FIELDS = List.of("message", "service", "local_qkey", "responder_resources", "local_eecn",
            "initiator_depth", "remote_eecn", "remote_cm_response_timeout", "transport_service_type",
            "end_to_end_flow_control", "local_cm_response_timeout", "retry_count", "partition_key", "path_mtu",
            "rdc_exists", "rnr_retry_count", "max_cm_retries", "srq", "extended_transport_type", "primary_local_lid",
            "primary_remote_lid", "primary_packet_rate", "primary_traffic_class", "primary_hop_limit", "primary_sl",
            "primary_subnet_local", "alternate_local_lid", "alternate_remote_lid", "alternate_local_gid",
            "alternate_remote_gid", "alternate_flow_label", "alternate_packet_rate", "alternate_traffic_class",
            "alternate_hop_limit", "alternate_sl", "alternate_subnet_local", "alternate_local_ack_timeout");
    static final List<String> IP_CM_FIELDS = List.of("major_version", "minor_version", "ip_version", "reserved",
            "destination_port", "port_space");
    /**
     * The UDP source port is not among them: on loopback a jrxe NIC sends through its UDP socket, from port 4791,
     * even with CAP_NET_RAW (docs/wire.md); through the raw socket QP1 sends from 55410, as rxe.
     */
    static final List<String> PACKET_FIELDS = List.of("kind", "dport", "opcode", "pkey", "dest_qpn", "ack_req",
            "payload_length", "icrc_ok");

    private GoldenRequest() {
    }

    /** Compares the first REQ of {@code capture} (jrxe's) with the first of the golden {@code goldenFile}. */
    static void assertSameAsKernels(Path capture, String goldenFile) {
        Map<String, Object> jrxe = firstRequest(capture);
        Map<String, Object> kernel = firstRequest(GoldenCaptures.cmFile(goldenFile));
        for (String f : PACKET_FIELDS) {
            assertThat(jrxe.get(f)).as("packet field %s", f).isEqualTo(kernel.get(f));
        }
        assertThat(object(jrxe, "deth")).as("DETH").isEqualTo(object(kernel, "deth"));
        compare(object(jrxe, "mad"), object(kernel, "mad"), MAD_FIELDS, "MAD");
        Map<String, Object> cmJ = object(jrxe, "cm");
        Map<String, Object> cmK = object(kernel, "cm");
        compare(cmJ, cmK, REQ_FIELDS, "REQ");
        compare(object(cmJ, "ip_cm"), object(cmK, "ip_cm"), IP_CM_FIELDS, "IP CM header");
        String dataJ = (String) cmJ.get("private_data");
        String dataK = (String) cmK.get("private_data");
        assertThat(dataJ).as("the private data's length").hasSameSizeAs(dataK);
        assertThat(dataJ.substring(72)).as("the consumer's bytes after the 36-byte IP CM header").isEqualTo(dataK.substring(72));
    }

    private static void compare(Map<String, Object> jrxe, Map<String, Object> kernel, List<String> fields, String what) {
        for (String f : fields) {
            assertThat(kernel).as("the kernel's %s has %s", what, f).containsKey(f);
            assertThat(jrxe.get(f)).as("%s field %s", what, f).isEqualTo(kernel.get(f));
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Map<String, Object> parent, String key) {
        assertThat(parent).containsKey(key);
        return (Map<String, Object>) parent.get(key);
    }

    private static Map<String, Object> firstRequest(Path file) {
        InProcess decoded = InProcess.run("decode", "--json", file.toString());
        assertThat(decoded.status()).as(decoded.toString()).isZero();
        for (String line : decoded.lines()) {
            if (line.startsWith("{") && line.contains("\"message\":\"REQ\"")) {
                return StrictJson.parseObject(line);
            }
        }
        throw new AssertionError("no REQ in " + file + ":\n" + decoded.out());
    }
}
