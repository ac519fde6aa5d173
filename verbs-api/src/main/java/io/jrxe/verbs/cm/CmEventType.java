package io.jrxe.verbs.cm;

/** What a connection-manager event reports: librdmacm's rdma_cm_event_type, with its numbers. */
public enum CmEventType {
    /** The destination address resolved to a local device and port: resolve the route next. */
    ADDR_RESOLVED(0),
    /** The destination address could not be resolved (status: a negative errno). */
    ADDR_ERROR(1),
    /** The route resolved: create a QP on the identifier and connect. */
    ROUTE_RESOLVED(2),
    /** The route could not be resolved. */
    ROUTE_ERROR(3),
    /** Passive side: a peer asks to connect; the event's identifier is a new one, to accept or reject. */
    CONNECT_REQUEST(4),
    /** Active side without a QP on its identifier: the REP arrived; the consumer finishes the connection. */
    CONNECT_RESPONSE(5),
    /** The connection failed after the exchange started (status: a negative errno). */
    CONNECT_ERROR(6),
    /** The peer did not answer within the timeouts and retries (status -110, ETIMEDOUT), or refused a SIDR request. */
    UNREACHABLE(7),
    /** The peer refused: the status is the REJ's reason (8 invalid service ID: nobody listens on the port). */
    REJECTED(8),
    /** The connection is up; for the UDP port space, the remote QP is known (the event's datagram parameters). */
    ESTABLISHED(9),
    /** The connection ended: this side's disconnect was answered (or timed out), or the peer disconnected. */
    DISCONNECTED(10),
    /** The identifier's device went away. */
    DEVICE_REMOVAL(11),
    /** A multicast join completed. */
    MULTICAST_JOIN(12),
    /** A multicast join failed. */
    MULTICAST_ERROR(13),
    /** The local address changed. */
    ADDR_CHANGE(14),
    /** The connection left time-wait: its QP may be reused or destroyed. */
    TIMEWAIT_EXIT(15);

    private final int value;

    CmEventType(int value) {
        this.value = value;
    }

    /** librdmacm's number for it (RDMA_CM_EVENT_ESTABLISHED is 9). */
    public int value() {
        return value;
    }

    /** The name rdma_event_str gives it: RDMA_CM_EVENT_ESTABLISHED, ... */
    public String librdmacmName() {
        return "RDMA_CM_EVENT_" + name();
    }

    /** The type with librdmacm's number {@code value}. */
    public static CmEventType of(int value) {
        for (CmEventType t : values()) {
            if (t.value == value) {
                return t;
            }
        }
        throw new IllegalArgumentException("no RDMA CM event type " + value);
    }
}
