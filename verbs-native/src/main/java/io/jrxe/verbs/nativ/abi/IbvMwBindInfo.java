package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_mw_bind_info: the MR range and rights a memory window is bound to. */
public final class IbvMwBindInfo {
    public static final MemoryLayout LAYOUT = struct("ibv_mw_bind_info",
            POINTER.withName("mr"),
            U64.withName("addr"),
            U64.withName("length"),
            U32.withName("mw_access_flags"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long MR = offset(LAYOUT, "mr");
    public static final long ADDR = offset(LAYOUT, "addr");
    public static final long LENGTH = offset(LAYOUT, "length");
    public static final long MW_ACCESS_FLAGS = offset(LAYOUT, "mw_access_flags");

    private IbvMwBindInfo() {
    }
}
