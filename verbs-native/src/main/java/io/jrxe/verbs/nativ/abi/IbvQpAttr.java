package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_qp_attr: the attributes of ibv_modify_qp and ibv_query_qp. */
public final class IbvQpAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_qp_attr",
            ENUM.withName("qp_state"),
            ENUM.withName("cur_qp_state"),
            ENUM.withName("path_mtu"),
            ENUM.withName("path_mig_state"),
            U32.withName("qkey"),
            U32.withName("rq_psn"),
            U32.withName("sq_psn"),
            U32.withName("dest_qp_num"),
            U32.withName("qp_access_flags"),
            IbvQpCap.LAYOUT.withName("cap"),
            IbvAhAttr.LAYOUT.withName("ah_attr"),
            IbvAhAttr.LAYOUT.withName("alt_ah_attr"),
            U16.withName("pkey_index"),
            U16.withName("alt_pkey_index"),
            U8.withName("en_sqd_async_notify"),
            U8.withName("sq_draining"),
            U8.withName("max_rd_atomic"),
            U8.withName("max_dest_rd_atomic"),
            U8.withName("min_rnr_timer"),
            U8.withName("port_num"),
            U8.withName("timeout"),
            U8.withName("retry_cnt"),
            U8.withName("rnr_retry"),
            U8.withName("alt_port_num"),
            U8.withName("alt_timeout"),
            U32.withName("rate_limit"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long QP_STATE = offset(LAYOUT, "qp_state");
    public static final long CUR_QP_STATE = offset(LAYOUT, "cur_qp_state");
    public static final long PATH_MTU = offset(LAYOUT, "path_mtu");
    public static final long PATH_MIG_STATE = offset(LAYOUT, "path_mig_state");
    public static final long QKEY = offset(LAYOUT, "qkey");
    public static final long RQ_PSN = offset(LAYOUT, "rq_psn");
    public static final long SQ_PSN = offset(LAYOUT, "sq_psn");
    public static final long DEST_QP_NUM = offset(LAYOUT, "dest_qp_num");
    public static final long QP_ACCESS_FLAGS = offset(LAYOUT, "qp_access_flags");
    public static final long CAP = offset(LAYOUT, "cap");
    public static final long AH_ATTR = offset(LAYOUT, "ah_attr");
    public static final long PKEY_INDEX = offset(LAYOUT, "pkey_index");
    public static final long EN_SQD_ASYNC_NOTIFY = offset(LAYOUT, "en_sqd_async_notify");
    public static final long MAX_RD_ATOMIC = offset(LAYOUT, "max_rd_atomic");
    public static final long MAX_DEST_RD_ATOMIC = offset(LAYOUT, "max_dest_rd_atomic");
    public static final long MIN_RNR_TIMER = offset(LAYOUT, "min_rnr_timer");
    public static final long PORT_NUM = offset(LAYOUT, "port_num");
    public static final long TIMEOUT = offset(LAYOUT, "timeout");
    public static final long RETRY_CNT = offset(LAYOUT, "retry_cnt");
    public static final long RNR_RETRY = offset(LAYOUT, "rnr_retry");

    private IbvQpAttr() {
    }
}
