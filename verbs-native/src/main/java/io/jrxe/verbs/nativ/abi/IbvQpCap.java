package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_qp_cap: a QP's queue sizes. */
public final class IbvQpCap {
    public static final MemoryLayout LAYOUT = struct("ibv_qp_cap",
            U32.withName("max_send_wr"),
            U32.withName("max_recv_wr"),
            U32.withName("max_send_sge"),
            U32.withName("max_recv_sge"),
            U32.withName("max_inline_data"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long MAX_SEND_WR = offset(LAYOUT, "max_send_wr");
    public static final long MAX_RECV_WR = offset(LAYOUT, "max_recv_wr");
    public static final long MAX_SEND_SGE = offset(LAYOUT, "max_send_sge");
    public static final long MAX_RECV_SGE = offset(LAYOUT, "max_recv_sge");
    public static final long MAX_INLINE_DATA = offset(LAYOUT, "max_inline_data");

    private IbvQpCap() {
    }
}
