package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_srq_init_attr: what ibv_create_srq takes (and fills with the sizes it gave). */
public final class IbvSrqInitAttr {
    public static final MemoryLayout LAYOUT = struct("ibv_srq_init_attr",
            POINTER.withName("srq_context"),
            IbvSrqAttr.LAYOUT.withName("attr"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long SRQ_CONTEXT = offset(LAYOUT, "srq_context");
    public static final long ATTR_MAX_WR = offset(LAYOUT, "attr.max_wr");
    public static final long ATTR_MAX_SGE = offset(LAYOUT, "attr.max_sge");
    public static final long ATTR_SRQ_LIMIT = offset(LAYOUT, "attr.srq_limit");

    private IbvSrqInitAttr() {
    }
}
