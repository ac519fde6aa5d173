package io.jrxe.rnic.engine;

/** The steps of a work request's trip through the NIC, for teaching views and tests. */
public enum TraceEvent {
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
