package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct rdma_ud_param (rdma_cma.h): what a UDP port space event carried: the peer's address, QP and Q_Key. */
public final class RdmaUdParam {
    public static final MemoryLayout LAYOUT = struct("rdma_ud_param",
            POINTER.withName("private_data"),
            U8.withName("private_data_len"),
            IbvAhAttr.LAYOUT.withName("ah_attr"),
            U32.withName("qp_num"),
            U32.withName("qkey"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long PRIVATE_DATA = offset(LAYOUT, "private_data");
    public static final long PRIVATE_DATA_LEN = offset(LAYOUT, "private_data_len");
    public static final long AH_ATTR = offset(LAYOUT, "ah_attr");
    public static final long QP_NUM = offset(LAYOUT, "qp_num");
    public static final long QKEY = offset(LAYOUT, "qkey");

    private RdmaUdParam() {
    }
}
