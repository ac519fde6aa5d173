package io.jrxe.tools.compare;

/**
 * The connection attributes of a step's QPs: the local ACK timeout (4.096 us x 2^timeout), the retry counts and
 * the RNR timer the responder asks for. The error steps lower them to fail fast.
 */
record QpSettings(int timeout, int retryCnt, int rnrRetry, int minRnrTimer) {
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
}
