package io.jrxe.wire.psn;

/**
 * The QP attribute "timeout" (0..31): the requester's local ACK timeout is 4.096 us x 2^timeout
 * (IBTA 9.7.6.1.3); 0 means the timer is off (wait forever).
 */
public final class LocalAckTimeout {
    public static final long INFINITE = Long.MAX_VALUE;
    private static final long BASE_NANOS_TIMES_1000 = 4_096_000L; // 4.096 us in picoseconds

    private LocalAckTimeout() {
    }

    /** The timeout in nanoseconds, or {@link #INFINITE} for code 0. */
    public static long nanos(int timeout) {
        if (timeout < 0 || timeout > 31) {
            throw new IllegalArgumentException("local ACK timeout " + timeout + " is out of range 0..31");
        }
        if (timeout == 0) {
            return INFINITE;
        }
        return (BASE_NANOS_TIMES_1000 << timeout) / 1000;
    }
}
