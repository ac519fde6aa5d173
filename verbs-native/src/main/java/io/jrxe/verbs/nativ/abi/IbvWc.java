package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_wc: one work completion as poll_cq writes it. */
public final class IbvWc {
    public static final MemoryLayout LAYOUT = struct("ibv_wc",
            U64.withName("wr_id"),
            ENUM.withName("status"),
            ENUM.withName("opcode"),
            U32.withName("vendor_err"),
            U32.withName("byte_len"),
            union(null,
                U32.withName("imm_data"),
                U32.withName("invalidated_rkey")),
            U32.withName("qp_num"),
            U32.withName("src_qp"),
            U32.withName("wc_flags"),
            U16.withName("pkey_index"),
            U16.withName("slid"),
            U8.withName("sl"),
            U8.withName("dlid_path_bits"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long WR_ID = offset(LAYOUT, "wr_id");
    public static final long STATUS = offset(LAYOUT, "status");
    public static final long OPCODE = offset(LAYOUT, "opcode");
    public static final long VENDOR_ERR = offset(LAYOUT, "vendor_err");
    public static final long BYTE_LEN = offset(LAYOUT, "byte_len");
    public static final long IMM_DATA = offset(LAYOUT, "imm_data");
    public static final long INVALIDATED_RKEY = offset(LAYOUT, "invalidated_rkey");
    public static final long QP_NUM = offset(LAYOUT, "qp_num");
    public static final long SRC_QP = offset(LAYOUT, "src_qp");
    public static final long WC_FLAGS = offset(LAYOUT, "wc_flags");
    public static final long PKEY_INDEX = offset(LAYOUT, "pkey_index");
    public static final long SLID = offset(LAYOUT, "slid");
    public static final long SL = offset(LAYOUT, "sl");
    public static final long DLID_PATH_BITS = offset(LAYOUT, "dlid_path_bits");

    private IbvWc() {
    }
}
