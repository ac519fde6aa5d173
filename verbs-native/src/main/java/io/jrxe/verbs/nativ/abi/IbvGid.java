package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** union ibv_gid: 16 bytes, as raw bytes or as subnet prefix and interface id (both big-endian). */
public final class IbvGid {
    public static final MemoryLayout LAYOUT = union("ibv_gid",
            array(16, U8, "raw"),
            struct("global", U64.withName("subnet_prefix"), U64.withName("interface_id")));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long RAW = offset(LAYOUT, "raw");

    private IbvGid() {
    }
}
