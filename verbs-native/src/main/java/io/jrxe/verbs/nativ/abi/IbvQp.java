package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_qp: a QP's number, state and type, and its context (whose ops post to it). */
public final class IbvQp {
    public static final MemoryLayout LAYOUT = struct("ibv_qp",
            POINTER.withName("context"),
            POINTER.withName("qp_context"),
            POINTER.withName("pd"),
            POINTER.withName("send_cq"),
            POINTER.withName("recv_cq"),
            POINTER.withName("srq"),
            U32.withName("handle"),
            U32.withName("qp_num"),
            ENUM.withName("state"),
            ENUM.withName("qp_type"),
            pthreadMutex("mutex"),
            pthreadCond("cond"),
            U32.withName("events_completed"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long HANDLE = offset(LAYOUT, "handle");
    public static final long QP_NUM = offset(LAYOUT, "qp_num");
    public static final long STATE = offset(LAYOUT, "state");
    public static final long QP_TYPE = offset(LAYOUT, "qp_type");

    private IbvQp() {
    }
}
