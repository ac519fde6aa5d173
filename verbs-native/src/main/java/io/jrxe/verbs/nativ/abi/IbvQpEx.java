package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * struct ibv_qp_ex: an ibv_qp made by ibv_create_qp_ex, followed by the work request being
 * built (wr_id, wr_flags) and the provider's functions that build and post it (verbs.h's inline
 * ibv_wr_* call them). The layout is rdma-core 44's, which ends at wr_atomic_write; later
 * releases append wr_flush right after it (rdma-core 56.1 in Debian 13).
 */
public final class IbvQpEx {
    public static final MemoryLayout LAYOUT = struct("ibv_qp_ex",
            IbvQp.LAYOUT.withName("qp_base"),
            U64.withName("comp_mask"),
            U64.withName("wr_id"),
            U32.withName("wr_flags"),
            POINTER.withName("wr_atomic_cmp_swp"),
            POINTER.withName("wr_atomic_fetch_add"),
            POINTER.withName("wr_bind_mw"),
            POINTER.withName("wr_local_inv"),
            POINTER.withName("wr_rdma_read"),
            POINTER.withName("wr_rdma_write"),
            POINTER.withName("wr_rdma_write_imm"),
            POINTER.withName("wr_send"),
            POINTER.withName("wr_send_imm"),
            POINTER.withName("wr_send_inv"),
            POINTER.withName("wr_send_tso"),
            POINTER.withName("wr_set_ud_addr"),
            POINTER.withName("wr_set_xrc_srqn"),
            POINTER.withName("wr_set_inline_data"),
            POINTER.withName("wr_set_inline_data_list"),
            POINTER.withName("wr_set_sge"),
            POINTER.withName("wr_set_sge_list"),
            POINTER.withName("wr_start"),
            POINTER.withName("wr_complete"),
            POINTER.withName("wr_abort"),
            POINTER.withName("wr_atomic_write"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long WR_ID = offset(LAYOUT, "wr_id");
    public static final long WR_FLAGS = offset(LAYOUT, "wr_flags");
    public static final long WR_START = offset(LAYOUT, "wr_start");
    public static final long WR_COMPLETE = offset(LAYOUT, "wr_complete");
    public static final long WR_ABORT = offset(LAYOUT, "wr_abort");
    public static final long WR_ATOMIC_WRITE = offset(LAYOUT, "wr_atomic_write");
    /** wr_flush, the member after wr_atomic_write in rdma-core releases that have it. */
    public static final long WR_FLUSH = WR_ATOMIC_WRITE + POINTER.byteSize();
    /** The struct's size with wr_flush. */
    public static final long SIZE_WITH_FLUSH = WR_FLUSH + POINTER.byteSize();

    private IbvQpEx() {
    }
}
