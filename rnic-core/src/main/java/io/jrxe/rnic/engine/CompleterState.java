package io.jrxe.rnic.engine;

/**
 * The completer's state for one QP (rxe's qp->comp): what is acknowledged, retries left, the ACK
 * and RNR timers, and its hand-offs to the requester. Only the completer writes it.
 */
final class CompleterState {
    /** The oldest PSN not yet acknowledged. */
    int compPsn;
    int retryLeft;
    int rnrRetryLeft;
    long retransmitDeadline = Long.MAX_VALUE;
    boolean retransmitTimerPending;
    /** When the pending ACK timer was asked to fire: how late it fires tells whether the NIC thread was held up. */
    long retransmitTimerDue;
    /** The deadline was moved on once for time the NIC thread could not run (see {@code Completer.timerFired}). */
    boolean retransmitDeadlineStretched;
    /** A NAK-driven retry was made and nothing was acknowledged since (rxe's comp.started_retry). */
    boolean retryStarted;
    /** State of the per-QP generator that spreads ACK timeouts (seeded by the QPN: runs replay exactly). */
    long timerJitter;
    /** READs and atomics whose completions the completer wrote, ever (see {@link RequesterState#readsAtomicsStarted}). */
    long readsAtomicsRetired;

    /**
     * The retry hand-off (rxe's req.need_retry): each ask bumps {@code retryAsked}; the requester,
     * at the start of its next turn, goes back to {@code retryPsn} once for every ask it has not
     * taken yet.
     */
    long retryAsked;
    int retryPsn;
    /** Why the last retry was asked for, and which one it is (1 = the first resend), for capture comments. */
    RetryCause retryCause;
    int retryNumber;

    /** The RNR hand-off: the requester sends nothing before this time (an RNR NAK's wait). */
    long rnrResumeAt = Long.MIN_VALUE;
    boolean rnrTimerPending;

    CompleterState(int qpn) {
        timerJitter = 0x9E3779B97F4A7C15L * (qpn + 1);
    }

    void reset(int sqPsn, int retryCnt, int rnrRetry) {
        compPsn = sqPsn;
        retryLeft = retryCnt;
        rnrRetryLeft = rnrRetry;
        retransmitDeadline = Long.MAX_VALUE;
        retryStarted = false;
        rnrResumeAt = Long.MIN_VALUE;
    }
}
