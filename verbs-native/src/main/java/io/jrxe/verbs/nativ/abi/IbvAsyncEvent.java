package io.jrxe.verbs.nativ.abi;

import java.lang.foreign.MemoryLayout;

import static io.jrxe.verbs.nativ.abi.CLayout.*;

/** struct ibv_async_event: the object an event is about (QP, CQ, SRQ or port) and its type. */
public final class IbvAsyncEvent {
    public static final MemoryLayout LAYOUT = struct("ibv_async_event",
            union("element", POINTER.withName("cq"), POINTER.withName("qp"), POINTER.withName("srq"), POINTER.withName("wq"), INT.withName("port_num")),
            ENUM.withName("event_type"));
    public static final long SIZE = LAYOUT.byteSize();
    public static final long ELEMENT_CQ = offset(LAYOUT, "element.cq");
    public static final long ELEMENT_QP = offset(LAYOUT, "element.qp");
    public static final long ELEMENT_SRQ = offset(LAYOUT, "element.srq");
    public static final long ELEMENT_PORT_NUM = offset(LAYOUT, "element.port_num");
    public static final long EVENT_TYPE = offset(LAYOUT, "event_type");

    private IbvAsyncEvent() {
    }
}
