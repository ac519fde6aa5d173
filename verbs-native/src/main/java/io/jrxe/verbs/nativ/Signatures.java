package io.jrxe.verbs.nativ;

import java.lang.foreign.FunctionDescriptor;
import java.util.Map;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The C signatures of the libibverbs functions jrxe calls by name (verbs.h, rdma-core 44):
 * uint8_t is JAVA_BYTE, uint16_t JAVA_SHORT, int, unsigned and enums are JAVA_INT, size_t and uint64_t JAVA_LONG.
 * The verbs that verbs.h defines inline call through the context's ops table instead (see
 * {@link OpsCalls} and {@link DataPathCalls}).
 */
final class Signatures {
    static final Map<String, FunctionDescriptor> EXPORTED = Map.ofEntries(
            Map.entry("ibv_get_device_list", FunctionDescriptor.of(ADDRESS, ADDRESS)),
            Map.entry("ibv_free_device_list", FunctionDescriptor.ofVoid(ADDRESS)),
            Map.entry("ibv_get_device_guid", FunctionDescriptor.of(JAVA_LONG, ADDRESS)),
            Map.entry("ibv_open_device", FunctionDescriptor.of(ADDRESS, ADDRESS)),
            Map.entry("ibv_close_device", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_query_device", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            // The exported ibv_query_port fills the older, shorter port attributes: a prefix of ibv_port_attr.
            Map.entry("ibv_query_port", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, ADDRESS)),
            Map.entry("_ibv_query_gid_ex", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG)),
            Map.entry("ibv_query_pkey", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_BYTE, JAVA_INT, ADDRESS)),
            Map.entry("ibv_alloc_pd", FunctionDescriptor.of(ADDRESS, ADDRESS)),
            Map.entry("ibv_dealloc_pd", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_reg_mr_iova2", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT)),
            Map.entry("ibv_rereg_mr", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT)),
            Map.entry("ibv_dereg_mr", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_create_comp_channel", FunctionDescriptor.of(ADDRESS, ADDRESS)),
            Map.entry("ibv_destroy_comp_channel", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_create_cq", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("ibv_resize_cq", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)),
            Map.entry("ibv_destroy_cq", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_get_cq_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
            Map.entry("ibv_ack_cq_events", FunctionDescriptor.ofVoid(ADDRESS, JAVA_INT)),
            Map.entry("ibv_create_qp", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)),
            Map.entry("ibv_modify_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("ibv_query_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS)),
            Map.entry("ibv_destroy_qp", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_qp_to_qp_ex", FunctionDescriptor.of(ADDRESS, ADDRESS)),
            Map.entry("ibv_attach_mcast", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT)),
            Map.entry("ibv_detach_mcast", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_SHORT)),
            Map.entry("ibv_create_srq", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)),
            Map.entry("ibv_modify_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)),
            Map.entry("ibv_destroy_srq", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_create_ah", FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS)),
            Map.entry("ibv_destroy_ah", FunctionDescriptor.of(JAVA_INT, ADDRESS)),
            Map.entry("ibv_get_async_event", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
            Map.entry("ibv_ack_async_event", FunctionDescriptor.ofVoid(ADDRESS)));

    private Signatures() {
    }
}
