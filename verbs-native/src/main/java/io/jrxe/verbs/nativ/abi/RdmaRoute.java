package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct rdma_route (rdma_cma.h): an identifier's addresses and the path records they resolved to. */
public final class RdmaRoute {
    public static final MemoryLayout LAYOUT = struct("rdma_route",
            RdmaAddr.LAYOUT.withName("addr"),
            POINTER.withName("path_rec"),
            INT.withName("num_paths"));
    public static final long ADDR = offset(LAYOUT, "addr");

    private RdmaRoute() {
    }
}
