package io.jrxe.rnic.cm;

/**
 * The CM's waits. IBTA encodes every CM time as an exponent t of 4.096 µs × 2^t. A side that sent
 * a REQ, REP or DREQ waits the peer's response timeout plus a round trip (two packet life
 * times) before it sends again; time-wait lasts two packet life times plus the local ACK timeout,
 * so that nothing of the old connection is still in flight when its QP is reused.
 */
final class CmTimers {
    private CmTimers() {
    }

    /** 4.096 µs × 2^t in nanoseconds (t is 0..31). */
    static long nanos(int exponent) {
        return 4096L << Math.min(31, Math.max(0, exponent));
    }

    /** How long to wait for the answer to a message the peer answers within its response timeout. */
    static long responseWait(int peerResponseTimeout, int packetLifeTime) {
        return nanos(peerResponseTimeout) + 2 * nanos(packetLifeTime);
    }

    static long timewait(int packetLifeTime, int localAckTimeout) {
        return 2 * nanos(packetLifeTime) + nanos(localAckTimeout);
    }
}
