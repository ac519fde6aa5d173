package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_context_ops: the provider's function table, through which verbs.h's inline verbs (post_send, poll_cq, ...) call. */
public final class IbvContextOps {
    public static final MemoryLayout LAYOUT = struct("ibv_context_ops",
            POINTER.withName("_compat_query_device"),
            POINTER.withName("_compat_query_port"),
            POINTER.withName("_compat_alloc_pd"),
            POINTER.withName("_compat_dealloc_pd"),
            POINTER.withName("_compat_reg_mr"),
            POINTER.withName("_compat_rereg_mr"),
            POINTER.withName("_compat_dereg_mr"),
            POINTER.withName("alloc_mw"),
            POINTER.withName("bind_mw"),
            POINTER.withName("dealloc_mw"),
            POINTER.withName("_compat_create_cq"),
            POINTER.withName("poll_cq"),
            POINTER.withName("req_notify_cq"),
            POINTER.withName("_compat_cq_event"),
            POINTER.withName("_compat_resize_cq"),
            POINTER.withName("_compat_destroy_cq"),
            POINTER.withName("_compat_create_srq"),
            POINTER.withName("_compat_modify_srq"),
            POINTER.withName("_compat_query_srq"),
            POINTER.withName("_compat_destroy_srq"),
            POINTER.withName("post_srq_recv"),
            POINTER.withName("_compat_create_qp"),
            POINTER.withName("_compat_query_qp"),
            POINTER.withName("_compat_modify_qp"),
            POINTER.withName("_compat_destroy_qp"),
            POINTER.withName("post_send"),
            POINTER.withName("post_recv"),
            POINTER.withName("_compat_create_ah"),
            POINTER.withName("_compat_destroy_ah"),
            POINTER.withName("_compat_attach_mcast"),
            POINTER.withName("_compat_detach_mcast"),
            POINTER.withName("_compat_async_event"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long ALLOC_MW = offset(LAYOUT, "alloc_mw");
    public static final long BIND_MW = offset(LAYOUT, "bind_mw");
    public static final long DEALLOC_MW = offset(LAYOUT, "dealloc_mw");
    public static final long POLL_CQ = offset(LAYOUT, "poll_cq");
    public static final long REQ_NOTIFY_CQ = offset(LAYOUT, "req_notify_cq");
    public static final long POST_SRQ_RECV = offset(LAYOUT, "post_srq_recv");
    public static final long POST_SEND = offset(LAYOUT, "post_send");
    public static final long POST_RECV = offset(LAYOUT, "post_recv");

    private IbvContextOps() {
    }
}
