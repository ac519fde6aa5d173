package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_sge: one scatter/gather element. */
public final class IbvSge {
    public static final MemoryLayout LAYOUT = struct("ibv_sge",
            U64.withName("addr"),
            U32.withName("length"),
            U32.withName("lkey"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long ADDR = offset(LAYOUT, "addr");
    public static final long LENGTH = offset(LAYOUT, "length");
    public static final long LKEY = offset(LAYOUT, "lkey");

    private IbvSge() {
    }
}
