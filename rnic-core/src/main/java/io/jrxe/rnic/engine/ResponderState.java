package io.jrxe.rnic.engine;

import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.queue.ReceiveWqe;

/**
 * The responder's state for one QP (rxe's qp->resp): the expected PSN and MSN, the message in
 * progress with its receive WQE or write target, the read/atomic resources, and the responses
 * waiting to be sent in order.
 */
final class ResponderState {
    int epsn;
    int msn;
    boolean sequenceNakSent;
    /** An ACK owed for this receive burst (see Responder#acknowledgeIfAsked): its PSN and MSN, and whether it is listed. */
    boolean ackOwed;
    int owedAckPsn;
    int owedAckMsn;
    boolean ackListed;

    MessageInProgress inMessage = MessageInProgress.NONE;
    ReceiveWqe recvWqe;
    long recvOffset;
    boolean recvFromSrq;
    long writeVa;
    int writeRkey;
    /** The MPT entry the WRITE's R_Key reached, checked for the whole message at its first packet. */
    MptEntry writeEntry;
    long writeRemaining;
    long writeLength;

    /** max_dest_rd_atomic of them, sized when the QP enters RTR as rxe sizes its qp->resp.resources. */
    ResponderResource[] resources;
    int nextResource;
    ResponseQueue responses;

    private ReceiveWqe srqCopy;

    ResponderState() {
        size(1);
    }

    /**
     * Holds {@code maxResources} resources (at least one) and room for their responses. A QP is sized for what
     * its RTR modify granted, not for the device's maximum: a thousand QPs that allow one READ each would
     * otherwise carry a hundred times the memory they can use.
     */
    private void size(int maxResources) {
        int n = Math.max(1, maxResources);
        if (resources != null && resources.length == n) {
            return;
        }
        resources = new ResponderResource[n];
        for (int i = 0; i < n; i++) {
            resources[i] = new ResponderResource();
        }
        nextResource = 0;
        // Every READ and atomic takes one entry and the ACKs between them coalesce: twice the
        // resources (and a few for NAKs) never fill up unless a peer exceeds its max_rd_atomic.
        responses = new ResponseQueue(2 * n + 8);
    }

    /** A private copy of a WQE taken from the SRQ, so the SRQ slot can be reused at once. */
    ReceiveWqe srqCopy(int maxSge) {
        if (srqCopy == null || srqCopy.sgl().capacity() < maxSge) {
            srqCopy = new ReceiveWqe(maxSge);
        }
        return srqCopy;
    }

    /** Entering RTR with {@code maxResources} responder resources, or RESET (then one). */
    void reset(int rqPsn, int maxResources) {
        size(maxResources);
        epsn = rqPsn;
        msn = 0;
        sequenceNakSent = false;
        ackOwed = false;
        inMessage = MessageInProgress.NONE;
        recvWqe = null;
        writeEntry = null;
        responses.clear();
        for (ResponderResource r : resources) {
            r.clear();
        }
    }
}
