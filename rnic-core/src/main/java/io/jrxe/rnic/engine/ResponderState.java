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

    final ResponderResource[] resources;
    int nextResource;
    final ResponseQueue responses;

    private ReceiveWqe srqCopy;

    ResponderState(int maxResources) {
        resources = new ResponderResource[Math.max(1, maxResources)];
        for (int i = 0; i < resources.length; i++) {
            resources[i] = new ResponderResource();
        }
        // Every READ and atomic takes one entry and the ACKs between them coalesce: twice the
        // resources (and a few for NAKs) never fill up unless a peer exceeds its max_rd_atomic.
        responses = new ResponseQueue(2 * resources.length + 8);
    }

    /** A private copy of a WQE taken from the SRQ, so the SRQ slot can be reused at once. */
    ReceiveWqe srqCopy(int maxSge) {
        if (srqCopy == null || srqCopy.sgl().capacity() < maxSge) {
            srqCopy = new ReceiveWqe(maxSge);
        }
        return srqCopy;
    }

    void reset(int rqPsn) {
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
