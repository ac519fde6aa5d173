package io.jrxe.wire.sim.fabric;

/**
 * Priority flow control for one traffic class: once the bytes a switch holds from one ingress link pass
 * {@code xoffBytes} it pauses the sender at that link's far end; once they fall to {@code xonBytes} it resumes it.
 * The pause holds until the resume (no pause quanta to expire).
 */
public record PfcThresholds(long xoffBytes, long xonBytes) {
    public PfcThresholds {
        if (xonBytes < 0 || xoffBytes <= xonBytes) {
            throw new IllegalArgumentException("PFC needs 0 <= XON < XOFF, not XOFF " + xoffBytes + " and XON "
                    + xonBytes);
        }
    }
}
