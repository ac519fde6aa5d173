package io.jrxe.rnic.engine;

/**
 * The requester's state for one QP (rxe's qp->req): where it is in the send queue and the PSN
 * space. Only the requester writes it.
 */
final class RequesterState {
    /** The absolute send-queue index of the next WQE to send (the queue numbers entries from 0 as posted). */
    long next;
    /** The PSN of the next packet to send. */
    int psn;
    int packetsSinceAckRequest;
    /** READs and atomics the requester has started, ever; minus the completer's retired count, those outstanding. */
    long readsAtomicsStarted;
    /** The completer's retry hand-off it has carried out (see {@link CompleterState#retryAsked}). */
    long retriesTaken;
    /** One past the highest PSN ever sent: a packet below it is a retransmission. */
    int sentHighWater;

    void reset(int sqPsn, long sendQueueHead, long readsAtomicsRetired, long retriesAsked) {
        next = sendQueueHead;
        psn = sqPsn;
        packetsSinceAckRequest = 0;
        readsAtomicsStarted = readsAtomicsRetired;
        retriesTaken = retriesAsked;
        sentHighWater = sqPsn;
    }
}
