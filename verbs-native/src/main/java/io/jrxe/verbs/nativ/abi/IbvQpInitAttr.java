package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_qp_init_attr: what ibv_create_qp takes (and fills with the sizes it gave). */
public final class IbvQpInitAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_qp_init_attr",
            POINTER.withName("qp_context"),
            POINTER.withName("send_cq"),
            POINTER.withName("recv_cq"),
            POINTER.withName("srq"),
            IbvQpCap.LAYOUT.withName("cap"),
            ENUM.withName("qp_type"),
            INT.withName("sq_sig_all"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long QP_CONTEXT = offset(LAYOUT, "qp_context");
    public static final long SEND_CQ = offset(LAYOUT, "send_cq");
    public static final long RECV_CQ = offset(LAYOUT, "recv_cq");
    public static final long SRQ = offset(LAYOUT, "srq");
    public static final long CAP = offset(LAYOUT, "cap");
    public static final long QP_TYPE = offset(LAYOUT, "qp_type");
    public static final long SQ_SIG_ALL = offset(LAYOUT, "sq_sig_all");

    private IbvQpInitAttr() {
    }
}
