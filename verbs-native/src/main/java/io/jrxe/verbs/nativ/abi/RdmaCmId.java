package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/**
 * struct rdma_cm_id (rdma_cma.h): a communication identifier as librdmacm shows it. librdmacm
 * fills verbs (the open device) once an address binds or resolves, qp once rdma_create_qp made
 * one, and route.addr after every bind, resolve and connection request.
 */
public final class RdmaCmId {
    public static final MemoryLayout LAYOUT = struct("rdma_cm_id",
            POINTER.withName("verbs"),
            POINTER.withName("channel"),
            POINTER.withName("context"),
            POINTER.withName("qp"),
            RdmaRoute.LAYOUT.withName("route"),
            ENUM.withName("ps"),
            U8.withName("port_num"),
            POINTER.withName("event"),
            POINTER.withName("send_cq_channel"),
            POINTER.withName("send_cq"),
            POINTER.withName("recv_cq_channel"),
            POINTER.withName("recv_cq"),
            POINTER.withName("srq"),
            POINTER.withName("pd"),
            ENUM.withName("qp_type"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long VERBS = offset(LAYOUT, "verbs");
    public static final long QP = offset(LAYOUT, "qp");
    public static final long PD = offset(LAYOUT, "pd");
    public static final long SRC_ADDR = offset(LAYOUT, "route.addr.src_storage");
    public static final long DST_ADDR = offset(LAYOUT, "route.addr.dst_storage");
    public static final long PS = offset(LAYOUT, "ps");
    public static final long PORT_NUM = offset(LAYOUT, "port_num");
    public static final long QP_TYPE = offset(LAYOUT, "qp_type");

    private RdmaCmId() {
    }
}
