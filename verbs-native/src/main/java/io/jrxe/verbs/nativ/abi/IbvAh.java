package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_ah. */
public final class IbvAh {
    public static final MemoryLayout LAYOUT = struct("ibv_ah",
            POINTER.withName("context"),
            POINTER.withName("pd"),
            U32.withName("handle"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long PD = offset(LAYOUT, "pd");
    public static final long HANDLE = offset(LAYOUT, "handle");

    private IbvAh() {
    }
}
