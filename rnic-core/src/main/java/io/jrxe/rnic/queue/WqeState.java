package io.jrxe.rnic.queue;

/**
 * Where a send WQE is on its trip through the engines (rxe's wqe->state). The requester moves
 * it from POSTED to SENDING to SENT; the completer from SENT to DONE (a local operation, a
 * UC/UD message or a send-side error goes to DONE from the requester). Only DONE WQEs at the
 * head of the send queue complete, in order.
 */
public enum WqeState {
    /** Written by post_send; the requester has not reached it. */
    POSTED,
    /** The requester is putting it into packets (or resumes it after a rewind). */
    SENDING,
    /** Every packet went out; an RC WQE waits for its ACK or response. */
    SENT,
    /** Finished: its completion (status in earlyStatus, or success) is ready to be written. */
    DONE
}
