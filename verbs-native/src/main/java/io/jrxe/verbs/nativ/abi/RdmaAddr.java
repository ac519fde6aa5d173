package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * struct rdma_addr (rdma_cma.h): an identifier's source and destination socket addresses, each in
 * a union as big as sockaddr_storage, and the GIDs and P_Key they resolved to (struct rdma_ib_addr).
 */
public final class RdmaAddr {
    public static final MemoryLayout IB_ADDR = struct("rdma_ib_addr",
            IbvGid.LAYOUT.withName("sgid"),
            IbvGid.LAYOUT.withName("dgid"),
            U16.withName("pkey"));
    public static final MemoryLayout LAYOUT = struct("rdma_addr",
            union(null, SockAddr.STORAGE.withName("src_storage")),
            union(null, SockAddr.STORAGE.withName("dst_storage")),
            union("addr", IB_ADDR.withName("ibaddr")));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long SRC = offset(LAYOUT, "src_storage");
    public static final long DST = offset(LAYOUT, "dst_storage");

    private RdmaAddr() {
    }
}
