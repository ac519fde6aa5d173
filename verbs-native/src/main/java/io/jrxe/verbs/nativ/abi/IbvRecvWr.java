package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_recv_wr: a receive work request. */
public final class IbvRecvWr {
    public static final MemoryLayout LAYOUT = struct("ibv_recv_wr",
            U64.withName("wr_id"),
            POINTER.withName("next"),
            POINTER.withName("sg_list"),
            INT.withName("num_sge"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long WR_ID = offset(LAYOUT, "wr_id");
    public static final long NEXT = offset(LAYOUT, "next");
    public static final long SG_LIST = offset(LAYOUT, "sg_list");
    public static final long NUM_SGE = offset(LAYOUT, "num_sge");

    private IbvRecvWr() {
    }
}
