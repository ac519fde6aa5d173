package io.jrxe.verbs.nativ;

import java.lang.foreign.FunctionDescriptor;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/** The signatures of the control verbs verbs.h defines inline over the ops table (memory windows) and
 * over struct verbs_context (create_qp_ex, query_device_ex, advise_mr). */
final class OpsCalls {
    /** struct ibv_mw *(*alloc_mw)(struct ibv_pd *, enum ibv_mw_type). */
    static final FunctionDescriptor ALLOC_MW = FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT);
    /** int (*bind_mw)(struct ibv_qp *, struct ibv_mw *, struct ibv_mw_bind *). */
    static final FunctionDescriptor BIND_MW = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    /** int (*dealloc_mw)(struct ibv_mw *). */
    static final FunctionDescriptor DEALLOC_MW = FunctionDescriptor.of(JAVA_INT, ADDRESS);

    /** struct ibv_qp *(*create_qp_ex)(struct ibv_context *, struct ibv_qp_init_attr_ex *): verbs_context's. */
    static final FunctionDescriptor CREATE_QP_EX = FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS);
    /**
     * int (*query_device_ex)(struct ibv_context *, const struct ibv_query_device_ex_input *,
     * struct ibv_device_attr_ex *, size_t attr_size): verbs_context's; 0 or an errno.
     */
    static final FunctionDescriptor QUERY_DEVICE_EX = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG);

    /**
     * int (*advise_mr)(struct ibv_pd *, enum ibv_advise_mr_advice, uint32_t flags, struct ibv_sge *, uint32_t num_sge):
     * verbs_context's; 0 or an errno.
     */
    static final FunctionDescriptor ADVISE_MR = FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);

    private OpsCalls() {
    }
}
