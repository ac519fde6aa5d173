package io.jrxe.rnic.engine;

/** What a responder resource remembers, so that a duplicate request can be answered again. */
enum ResourceKind {
    FREE,
    /** An RDMA READ: its response can be replayed from any of its PSNs. */
    READ,
    /** An atomic: its original value is sent again; the operation is not repeated. */
    ATOMIC
}
