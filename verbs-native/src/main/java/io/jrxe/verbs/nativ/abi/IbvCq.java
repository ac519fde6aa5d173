package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_cq: a CQ's handle and size. */
public final class IbvCq {
    public static final MemoryLayout LAYOUT = struct("ibv_cq",
            POINTER.withName("context"),
            POINTER.withName("channel"),
            POINTER.withName("cq_context"),
            U32.withName("handle"),
            INT.withName("cqe"),
            pthreadMutex("mutex"),
            pthreadCond("cond"),
            U32.withName("comp_events_completed"),
            U32.withName("async_events_completed"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long CHANNEL = offset(LAYOUT, "channel");
    public static final long CQ_CONTEXT = offset(LAYOUT, "cq_context");
    public static final long HANDLE = offset(LAYOUT, "handle");
    public static final long CQE = offset(LAYOUT, "cqe");

    private IbvCq() {
    }
}
