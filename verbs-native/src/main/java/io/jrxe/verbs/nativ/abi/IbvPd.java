package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_pd. */
public final class IbvPd {
    public static final MemoryLayout LAYOUT = struct("ibv_pd",
            POINTER.withName("context"),
            U32.withName("handle"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long HANDLE = offset(LAYOUT, "handle");

    private IbvPd() {
    }
}
