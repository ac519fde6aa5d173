package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct rdma_event_channel (rdma_cma.h): the fd of /dev/infiniband/rdma_cm the events are read from. */
public final class RdmaEventChannel {
    public static final MemoryLayout LAYOUT = struct("rdma_event_channel",
            INT.withName("fd"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long FD = offset(LAYOUT, "fd");

    private RdmaEventChannel() {
    }
}
