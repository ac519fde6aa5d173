package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * struct rdma_cm_event (rdma_cma.h): what rdma_get_cm_event hands out until rdma_ack_cm_event. The
 * parameters are a union: conn for identifiers of RC QPs, ud for those of UD QPs.
 */
public final class RdmaCmEvent {
    public static final MemoryLayout LAYOUT = struct("rdma_cm_event",
            POINTER.withName("id"),
            POINTER.withName("listen_id"),
            ENUM.withName("event"),
            INT.withName("status"),
            union("param", RdmaConnParam.LAYOUT.withName("conn"), RdmaUdParam.LAYOUT.withName("ud")));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long ID = offset(LAYOUT, "id");
    public static final long LISTEN_ID = offset(LAYOUT, "listen_id");
    public static final long EVENT = offset(LAYOUT, "event");
    public static final long STATUS = offset(LAYOUT, "status");
    public static final long PARAM_CONN = offset(LAYOUT, "param.conn");
    public static final long PARAM_UD = offset(LAYOUT, "param.ud");

    private RdmaCmEvent() {
    }
}
