package io.jrxe.rnic.engine;

/** The requester's state for one QP (rxe's qp->req): where it is in the send queue and the PSN space. */
final class RequesterState {
    /** The next WQE to send, as a distance from the oldest uncompleted one. */
    int reqIndex;
    /** The PSN of the next packet to send. */
    int psn;
    int packetsSinceAckRequest;
    int outstandingReadsAtomics;
    long rnrResumeAt = Long.MIN_VALUE;
    boolean rnrTimerPending;
    /**
     * The completer asked to go back to {@link #retryPsn} (a NAK, an implied NAK, the ACK timer or an
     * RNR NAK); the requester rewinds at the start of its next turn, as rxe's req.need_retry.
     */
    boolean needRetry;
    int retryPsn;
    /** Why the last retry was asked for, and which one it is (1 = the first resend), for capture comments. */
    RetryCause retryCause;
    int retryNumber;
    /** One past the highest PSN ever sent: a packet below it is a retransmission. */
    int sentHighWater;

    /** This QP's share of the device's packets in flight, as last counted by {@link DeviceWindow}. */
    int countedInFlight;
    boolean waitingForWindow;

    void reset(int sqPsn) {
        reqIndex = 0;
        psn = sqPsn;
        packetsSinceAckRequest = 0;
        outstandingReadsAtomics = 0;
        rnrResumeAt = Long.MIN_VALUE;
        needRetry = false;
        sentHighWater = sqPsn;
    }
}
