package io.jrxe.rnic.engine;

import io.jrxe.wire.opcode.Opcode;

/** The responses a responder sends (IBTA 9.7.5): each is one packet but a READ's, which is one per MTU. */
enum ResponseKind {
    /** ACK, RNR NAK or NAK: an AETH with its syndrome. */
    ACKNOWLEDGE(Opcode.RC_ACKNOWLEDGE),
    /** An atomic's original value. */
    ATOMIC_ACKNOWLEDGE(Opcode.RC_ATOMIC_ACKNOWLEDGE),
    /**
     * FLUSH and ATOMIC WRITE are answered with an RDMA READ response of length zero (IBTA's memory
     * placement extensions; rxe's send_read_response_ack), whatever their AckReq bit: an RC ACK
     * there makes an rxe requester fail the work request.
     */
    PLACEMENT_ACKNOWLEDGE(Opcode.RC_RDMA_READ_RESPONSE_ONLY),
    /** An RDMA READ's data, FIRST/MIDDLE/LAST or ONLY. */
    READ_RESPONSE(null);

    /** The opcode of a single-packet response. */
    final Opcode opcode;

    ResponseKind(Opcode opcode) {
        this.opcode = opcode;
    }
}
