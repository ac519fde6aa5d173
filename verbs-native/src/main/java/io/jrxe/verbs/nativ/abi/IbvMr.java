package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_mr: the keys the kernel gave a registration. */
public final class IbvMr {
    public static final MemoryLayout LAYOUT = struct("ibv_mr",
            POINTER.withName("context"),
            POINTER.withName("pd"),
            POINTER.withName("addr"),
            SIZE_T.withName("length"),
            U32.withName("handle"),
            U32.withName("lkey"),
            U32.withName("rkey"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long CONTEXT = offset(LAYOUT, "context");
    public static final long PD = offset(LAYOUT, "pd");
    public static final long ADDR = offset(LAYOUT, "addr");
    public static final long LENGTH = offset(LAYOUT, "length");
    public static final long HANDLE = offset(LAYOUT, "handle");
    public static final long LKEY = offset(LAYOUT, "lkey");
    public static final long RKEY = offset(LAYOUT, "rkey");

    private IbvMr() {
    }
}
