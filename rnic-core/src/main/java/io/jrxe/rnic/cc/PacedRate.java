package io.jrxe.rnic.cc;

/**
 * One QP's rate limiter under a rate-based part ({@link DcqcnRate}, {@link TimelyRate}): what
 * {@link PacedFlow} asks before each new packet and tells of the signals the part reacts to.
 */
interface PacedRate {
    /** Whether the QP may send a new packet now; if not, the rate wakes the QP when it may. */
    boolean mayTransmit();

    /** A new packet of this many bytes went on the wire. */
    void transmitted(int bytes);

    /**
     * Whether the QP may resend a packet now (go-back-N); if not, the rate wakes the QP when it may. A rate that
     * leaves resends alone says yes.
     */
    default boolean mayResend() {
        return true;
    }

    /** A resent packet of this many bytes went on the wire. */
    default void resent(int bytes) {
    }

    /** A CNP came for the QP: true when the rate acted on it; false leaves it to the window. */
    boolean actOnCnp();

    /** A round-trip time was measured for one of the QP's packets. */
    void roundTrip(long nanos);

    /** The QP is gone: pending timers find nothing to do. */
    void detach();
}
