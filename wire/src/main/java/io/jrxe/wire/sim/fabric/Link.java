package io.jrxe.wire.sim.fabric;

/**
 * One direction of a cable: how fast it puts bits on the wire and how long a bit takes to reach the far end.
 *
 * @param bitsPerSecond the line rate
 * @param delayNanos    the propagation delay, one way
 */
public record Link(long bitsPerSecond, long delayNanos) {
    public Link {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException("a link's rate must be above 0 bit/s, not " + bitsPerSecond);
        }
        if (delayNanos < 0) {
            throw new IllegalArgumentException("a link's delay must not be negative, not " + delayNanos + " ns");
        }
    }

    /** The time the link takes to send {@code bytes} (rounded up to the nanosecond). */
    public long serialisationNanos(long bytes) {
        return Math.ceilDiv(bytes * 8 * 1_000_000_000L, bitsPerSecond);
    }

    public Link withRate(long bits) {
        return new Link(bits, delayNanos);
    }
}
