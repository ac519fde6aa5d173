package io.jrxe.tools.compare;

import io.jrxe.verbs.Access;

/**
 * The connection attributes of a step's QPs: the local ACK timeout (4.096 us x 2^timeout), the retry counts, the
 * RNR timer the responder asks for and the remote operations the QPs let a peer run (qp_access_flags). The error
 * steps lower the timers to fail fast; the placement steps add FLUSH to the access flags.
 */
record QpSettings(int timeout, int retryCnt, int rnrRetry, int minRnrTimer, int qpAccess) {
    /** WRITE, READ and the atomics: what every scenario but placement lets a peer do. */
    static final int REMOTE_ACCESS = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
    /**
     * ibv_rc_pingpong's attributes, but a local ACK timeout of 1.07 s (code 18) instead of 67 ms: on a busy machine a
     * late ACK would otherwise bring a retransmission into one setup's packets and not the other's, a difference of
     * timing that would look like one of behaviour.
     */
    static final QpSettings DEFAULT = new QpSettings(18, 7, 7, 12);
    /** The PSN each step's requester (A) starts at. */
    static final int PSN_A = 0x1000;
    /** The PSN each step's responder (B) starts at. */
    static final int PSN_B = 0x2000;

    /** Timers and retries, with the QPs' access flags of every scenario but placement. */
    QpSettings(int timeout, int retryCnt, int rnrRetry, int minRnrTimer) {
        this(timeout, retryCnt, rnrRetry, minRnrTimer, REMOTE_ACCESS);
    }

    /** The same timers with other access flags. */
    QpSettings withAccess(int access) {
        return new QpSettings(timeout, retryCnt, rnrRetry, minRnrTimer, access);
    }
}
