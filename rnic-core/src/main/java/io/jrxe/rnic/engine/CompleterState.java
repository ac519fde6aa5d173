package io.jrxe.rnic.engine;

/** The completer's state for one QP (rxe's qp->comp): what is acknowledged, retries left, the ACK timer. */
final class CompleterState {
    /** The oldest PSN not yet acknowledged. */
    int compPsn;
    int retryLeft;
    int rnrRetryLeft;
    /** WQEs were marked DONE since the completer last wrote completions. */
    boolean hasWork;
    long retransmitDeadline = Long.MAX_VALUE;
    boolean retransmitTimerPending;
    /** A NAK-driven retry was made and nothing was acknowledged since (rxe's comp.started_retry). */
    boolean retryStarted;
    /** State of the per-QP generator that spreads ACK timeouts (seeded by the QPN: runs replay exactly). */
    long timerJitter;

    CompleterState(int qpn) {
        timerJitter = 0x9E3779B97F4A7C15L * (qpn + 1);
    }

    void reset(int sqPsn, int retryCnt, int rnrRetry) {
        compPsn = sqPsn;
        retryLeft = retryCnt;
        rnrRetryLeft = rnrRetry;
        retransmitDeadline = Long.MAX_VALUE;
        retryStarted = false;
    }
}
