package io.jrxe.rnic.engine;

import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.wire.port.PeerAddress;

/**
 * The engines' state for one QP, owned by the NIC thread: where the requester is in the send
 * queue, what the completer still waits for, and the responder's expected PSN, message in
 * progress and read/atomic resources. rxe keeps the same three groups in qp->req, qp->comp
 * and qp->resp.
 */
final class QpEngine {
    /** SendWqe.engineState values. */
    static final int WQE_POSTED = 0;
    static final int WQE_SENDING = 1;
    static final int WQE_SENT = 2;
    static final int WQE_DONE = 3;

    final QueuePair qp;
    PeerAddress peer;
    int srcPort;

    // requester
    /** The next WQE to send, as a distance from the oldest uncompleted one. */
    int reqIndex;
    int psn;
    int packetsSinceAckRequest;
    int outstandingReadsAtomics;
    long rnrResumeAt = Long.MIN_VALUE;
    boolean rnrTimerPending;

    /** This QP's share of the device's packets in flight, as last counted by {@link DeviceWindow}. */
    int countedInFlight;
    boolean waitingForWindow;

    // completer
    /** State of the per-QP generator that spreads ACK timeouts (seeded by the QPN: runs replay exactly). */
    long timerJitter;
    int compPsn;
    int retryLeft;
    int rnrRetryLeft;
    long retransmitDeadline = Long.MAX_VALUE;
    boolean retransmitTimerPending;
    /** A NAK-driven retry was made and nothing was acknowledged since (rxe's comp.started_retry). */
    boolean retryStarted;

    // responder
    int epsn;
    int msn;
    boolean sequenceNakSent;
    /** An ACK owed for this receive burst (see Responder#acknowledgeIfAsked): its PSN and MSN, and whether DataPath listed it. */
    boolean ackOwed;
    int owedAckPsn;
    int owedAckMsn;
    boolean ackListed;
    /** Opcode of the message in progress (its FIRST packet's operation), or -1 between messages. */
    int inMessage = -1;
    ReceiveWqe recvWqe;
    long recvOffset;
    boolean recvFromSrq;
    long writeVa;
    int writeRkey;
    long writeRemaining;
    long writeLength;
    final ResponderResource[] resources;
    int nextResource;
    /** The READ being answered, packet by packet. */
    ResponderResource replying;

    private ReceiveWqe srqCopy;

    /** A private copy of a WQE taken from the SRQ, so the SRQ slot can be reused at once. */
    ReceiveWqe srqCopy(int maxSge) {
        if (srqCopy == null || srqCopy.sgl().capacity() < maxSge) {
            srqCopy = new ReceiveWqe(maxSge);
        }
        return srqCopy;
    }

    /** The doorbell's coalescing flag: a requester run is already queued. */
    final java.util.concurrent.atomic.AtomicBoolean doorbellPending = new java.util.concurrent.atomic.AtomicBoolean();
    final Runnable requesterRun;
    final Runnable retransmitCheck;
    final Runnable rnrResume;

    QpEngine(QueuePair qp, int maxResources, DataPath dataPath) {
        this.qp = qp;
        this.timerJitter = 0x9E3779B97F4A7C15L * (qp.qpn() + 1);
        this.resources = new ResponderResource[Math.max(1, maxResources)];
        for (int i = 0; i < resources.length; i++) {
            resources[i] = new ResponderResource();
        }
        this.requesterRun = () -> {
            doorbellPending.set(false);
            dataPath.runRequester(this);
        };
        this.retransmitCheck = () -> dataPath.retransmitTimerFired(this);
        this.rnrResume = () -> dataPath.rnrTimerFired(this);
    }

    void resetSend(int sqPsn) {
        reqIndex = 0;
        psn = sqPsn;
        compPsn = sqPsn;
        packetsSinceAckRequest = 0;
        outstandingReadsAtomics = 0;
        retryLeft = qp.retryCnt();
        rnrRetryLeft = qp.rnrRetry();
        retransmitDeadline = Long.MAX_VALUE;
        rnrResumeAt = Long.MIN_VALUE;
        retryStarted = false;
    }

    void resetReceive(int rqPsn) {
        epsn = rqPsn;
        msn = 0;
        sequenceNakSent = false;
        inMessage = -1;
        recvWqe = null;
        replying = null;
        for (ResponderResource r : resources) {
            r.clear();
        }
    }
}
