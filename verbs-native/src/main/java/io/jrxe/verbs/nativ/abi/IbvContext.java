package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_context: an open device, with the provider's ops table and the async event fd. */
public final class IbvContext {
    public static final MemoryLayout LAYOUT = struct("ibv_context",
            POINTER.withName("device"),
            IbvContextOps.LAYOUT.withName("ops"),
            INT.withName("cmd_fd"),
            INT.withName("async_fd"),
            INT.withName("num_comp_vectors"),
            pthreadMutex("mutex"),
            POINTER.withName("abi_compat"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long DEVICE = offset(LAYOUT, "device");
    public static final long OPS = offset(LAYOUT, "ops");
    public static final long CMD_FD = offset(LAYOUT, "cmd_fd");
    public static final long ASYNC_FD = offset(LAYOUT, "async_fd");
    public static final long NUM_COMP_VECTORS = offset(LAYOUT, "num_comp_vectors");
    public static final long ABI_COMPAT = offset(LAYOUT, "abi_compat");
    /**
     * abi_compat of a context that is the last member of a struct verbs_context, whose extended
     * ops lie before it in memory (rdma-core's __VERBS_ABI_IS_EXTENDED, all ones).
     */
    public static final long ABI_IS_EXTENDED = -1L;
    /** verbs_context.sz, the extended part's size: the member just before the ibv_context. */
    public static final long VERBS_SZ_BEFORE = 8;
    /**
     * verbs_context.create_qp_ex, counted back from the ibv_context: sz, _ABI_placeholder3,
     * close_xrcd, open_xrcd, create_srq_ex and get_srq_num lie between (8 bytes each). The
     * struct grows at its start, so this end has not moved since these members were added.
     */
    public static final long VERBS_CREATE_QP_EX_BEFORE = 56;
    /**
     * verbs_context.query_device_ex, counted back from the ibv_context as create_qp_ex is: past it lie open_qp,
     * ABI_placeholder1, ibv_create_flow, ABI_placeholder2 and ibv_destroy_flow.
     */
    public static final long VERBS_QUERY_DEVICE_EX_BEFORE = 104;
    /**
     * verbs_context.advise_mr (rdma-core 22 on), counted back from the ibv_context: the members added after it
     * (alloc_null_mr up to the newest) lie at the struct's start, so this offset is the same in every rdma-core.
     */
    public static final long VERBS_ADVISE_MR_BEFORE = 312;

    private IbvContext() {
    }
}
