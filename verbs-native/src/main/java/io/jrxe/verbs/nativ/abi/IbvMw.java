package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_mw: a memory window, its R_Key and type. */
public final class IbvMw {
    public static final MemoryLayout LAYOUT = struct("ibv_mw",
            POINTER.withName("context"),
            POINTER.withName("pd"),
            U32.withName("rkey"),
            U32.withName("handle"),
            ENUM.withName("type"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long PD = offset(LAYOUT, "pd");
    public static final long RKEY = offset(LAYOUT, "rkey");
    public static final long HANDLE = offset(LAYOUT, "handle");
    public static final long TYPE = offset(LAYOUT, "type");

    private IbvMw() {
    }
}
