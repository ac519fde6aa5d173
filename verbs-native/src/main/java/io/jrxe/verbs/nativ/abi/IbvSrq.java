package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_srq. */
public final class IbvSrq {
    public static final MemoryLayout LAYOUT = struct("ibv_srq",
            POINTER.withName("context"),
            POINTER.withName("srq_context"),
            POINTER.withName("pd"),
            U32.withName("handle"),
            pthreadMutex("mutex"),
            pthreadCond("cond"),
            U32.withName("events_completed"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long PD = offset(LAYOUT, "pd");
    public static final long HANDLE = offset(LAYOUT, "handle");

    private IbvSrq() {
    }
}
