package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_srq_attr: an SRQ's size and limit. */
public final class IbvSrqAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_srq_attr",
            U32.withName("max_wr"),
            U32.withName("max_sge"),
            U32.withName("srq_limit"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long MAX_WR = offset(LAYOUT, "max_wr");
    public static final long MAX_SGE = offset(LAYOUT, "max_sge");
    public static final long SRQ_LIMIT = offset(LAYOUT, "srq_limit");

    private IbvSrqAttr() {
    }
}
