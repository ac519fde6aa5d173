package io.jrxe.tools.perftest;

/**
 * How long a bandwidth client whose send queue is full may nap before it looks for completions: three
 * quarters of the time its outstanding bytes would take at {@link #PEAK_BYTES_PER_SECOND}, at most
 * {@link #MAX_NAP_NANOS}.
 *
 * <p>Why nap: a deep queue of large messages holds milliseconds of work, and waking for each completion
 * (17,000 a second for 64 KiB writes, each a wake-up and two context switches) takes CPU from the NIC
 * threads on the same two cores, about a quarter of a 64 KiB write-bw's bandwidth.
 *
 * <p>Why a fixed peak rate and not the rate seen: a nap based on the observed rate feeds on itself, since a
 * nap too long slows the rate, which lengthens the next nap (64-byte sends drop to about a quarter that way). jrxe
 * and kernel rxe, the devices these tools are for, move far less than a 100 Gb/s link, so a quarter of the
 * queue at least is still there when the nap ends. On faster hardware the queue may run dry during a nap:
 * measure such a NIC with perftest's own tools, which busy-poll.
 */
final class RefillPace {
    static final double PEAK_BYTES_PER_SECOND = 12.5e9;
    static final double NAP_SHARE_OF_QUEUE = 0.75;
    static final long MAX_NAP_NANOS = 1_000_000;
    /** Shorter naps are not worth a sleep: the waiter's spin and short parks serve better. */
    static final long MIN_NAP_NANOS = 20_000;

    private RefillPace() {
    }

    /** The nap for {@code outstanding} messages of {@code size} bytes in flight; 0 when too short to take. */
    static long napNanos(long outstanding, long size) {
        return bounded(outstanding * (double) size / PEAK_BYTES_PER_SECOND * 1e9 * NAP_SHARE_OF_QUEUE);
    }

    /** A nap of {@code nanos}: 0 below {@link #MIN_NAP_NANOS}, at most {@link #MAX_NAP_NANOS} (ReceivePace's too). */
    static long bounded(double nanos) {
        return nanos < MIN_NAP_NANOS ? 0 : (long) Math.min(MAX_NAP_NANOS, nanos);
    }
}
