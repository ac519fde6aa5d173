package io.jrxe.rnic.engine;

/** The steps of a work request's trip through the NIC, for teaching views and tests. */
public enum TraceEvent {
    /** post_send wrote the work request into the send queue (emitted on the posting thread). */
    POSTED,
    FETCHED,
    TRANSLATED,
    PACKET_SENT,
    PACKET_RECEIVED,
    ACK_RECEIVED,
    NAK_RECEIVED,
    RETRANSMIT,
    COMPLETED,
    DROPPED
}
