package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * struct ibv_qp_init_attr_ex: ibv_qp_init_attr followed by the extended members, of which jrxe
 * sets the PD and send_ops_flags (the extended QP API's work requests the QP will post).
 */
public final class IbvQpInitAttrEx {
    /** comp_mask: pd is set. */
    public static final int INIT_ATTR_PD = 1;
    /** comp_mask: send_ops_flags is set. */
    public static final int INIT_ATTR_SEND_OPS_FLAGS = 1 << 6;
    /** send_ops_flags: the QP posts FLUSH (ibv_wr_flush). */
    public static final long WITH_FLUSH = 1L << 11;
    /** send_ops_flags: the QP posts ATOMIC_WRITE (ibv_wr_atomic_write). */
    public static final long WITH_ATOMIC_WRITE = 1L << 12;

    public static final MemoryLayout LAYOUT = struct("ibv_qp_init_attr_ex",
            POINTER.withName("qp_context"),
            POINTER.withName("send_cq"),
            POINTER.withName("recv_cq"),
            POINTER.withName("srq"),
            IbvQpCap.LAYOUT.withName("cap"),
            ENUM.withName("qp_type"),
            INT.withName("sq_sig_all"),
            U32.withName("comp_mask"),
            POINTER.withName("pd"),
            POINTER.withName("xrcd"),
            U32.withName("create_flags"),
            U16.withName("max_tso_header"),
            POINTER.withName("rwq_ind_tbl"),
            struct("ibv_rx_hash_conf",
                    U8.withName("rx_hash_function"),
                    U8.withName("rx_hash_key_len"),
                    POINTER.withName("rx_hash_key"),
                    U64.withName("rx_hash_fields_mask")).withName("rx_hash_conf"),
            U32.withName("source_qpn"),
            U64.withName("send_ops_flags"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long COMP_MASK = offset(LAYOUT, "comp_mask");
    public static final long PD = offset(LAYOUT, "pd");
    public static final long SEND_OPS_FLAGS = offset(LAYOUT, "send_ops_flags");

    private IbvQpInitAttrEx() {
    }
}
