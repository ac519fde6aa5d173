package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct rdma_conn_param (rdma_cma.h): what rdma_connect and rdma_accept take, and what a TCP port space event carried. */
public final class RdmaConnParam {
    public static final MemoryLayout LAYOUT = struct("rdma_conn_param",
            POINTER.withName("private_data"),
            U8.withName("private_data_len"),
            U8.withName("responder_resources"),
            U8.withName("initiator_depth"),
            U8.withName("flow_control"),
            U8.withName("retry_count"),
            U8.withName("rnr_retry_count"),
            U8.withName("srq"),
            U32.withName("qp_num"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long PRIVATE_DATA = offset(LAYOUT, "private_data");
    public static final long PRIVATE_DATA_LEN = offset(LAYOUT, "private_data_len");
    public static final long RESPONDER_RESOURCES = offset(LAYOUT, "responder_resources");
    public static final long INITIATOR_DEPTH = offset(LAYOUT, "initiator_depth");
    public static final long FLOW_CONTROL = offset(LAYOUT, "flow_control");
    public static final long RETRY_COUNT = offset(LAYOUT, "retry_count");
    public static final long RNR_RETRY_COUNT = offset(LAYOUT, "rnr_retry_count");
    public static final long SRQ = offset(LAYOUT, "srq");
    public static final long QP_NUM = offset(LAYOUT, "qp_num");

    private RdmaConnParam() {
    }
}
