package io.jrxe.rnic.cm;

/**
 * What a CM event reports, named as librdmacm's events (rdma_cm_event_type) so that a
 * librdmacm-shaped API maps them one to one. ADDR_RESOLVED and ROUTE_RESOLVED belong to that
 * API (address and route resolution happen before the CM is involved); the CM itself posts the
 * others.
 */
public enum CmEventType {
    ADDR_RESOLVED,
    ROUTE_RESOLVED,
    /** Passive side: a REQ for a service it listens on; answer with accept or reject. */
    CONNECT_REQUEST,
    CONNECT_RESPONSE,
    /** The passive side gave up waiting for the RTU (status ETIMEDOUT), or a QP could not be moved. */
    CONNECT_ERROR,
    /** The peer never answered (status ETIMEDOUT), or a SIDR_REP refused (status: the SIDR status). */
    UNREACHABLE,
    /** The peer sent a REJ; the status is its reason code (8 invalid service ID, 28 consumer reject, ...). */
    REJECTED,
    /** The connection is up (active: REP taken, RTU sent; passive: RTU taken); for SIDR, the service resolved. */
    ESTABLISHED,
    /** A DREQ was sent and answered (status 0) or not (ETIMEDOUT), or the peer's DREQ arrived. */
    DISCONNECTED,
    /** The connection left time-wait: its communication ID and QP may be reused. */
    TIMEWAIT_EXIT
}
