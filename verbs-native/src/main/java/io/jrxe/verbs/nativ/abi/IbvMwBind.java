package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_mw_bind: what ibv_bind_mw takes for a type 1 window (posted on a QP as a bind work request). */
public final class IbvMwBind {
    public static final MemoryLayout LAYOUT = struct("ibv_mw_bind",
            U64.withName("wr_id"),
            U32.withName("send_flags"),
            IbvMwBindInfo.LAYOUT.withName("bind_info"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long WR_ID = offset(LAYOUT, "wr_id");
    public static final long SEND_FLAGS = offset(LAYOUT, "send_flags");
    public static final long BIND_INFO_MR = offset(LAYOUT, "bind_info.mr");
    public static final long BIND_INFO_ADDR = offset(LAYOUT, "bind_info.addr");
    public static final long BIND_INFO_LENGTH = offset(LAYOUT, "bind_info.length");
    public static final long BIND_INFO_MW_ACCESS_FLAGS = offset(LAYOUT, "bind_info.mw_access_flags");

    private IbvMwBind() {
    }
}
