package io.jrxe.wire.sim;

/**
 * What the simulated network does to packets in one direction: probabilities (0..1) of loss,
 * duplication, reordering (an extra delay of up to {@code reorderNanos}) and corruption (one
 * flipped bit), and a base one-way delay.
 */
public record LinkFaults(double loss, double duplicate, double reorder, double corrupt, long delayNanos,
                         long reorderNanos) {
    public static final LinkFaults NONE = new LinkFaults(0, 0, 0, 0, 5_000, 0);

    public LinkFaults {
        check("loss", loss);
        check("duplicate", duplicate);
        check("reorder", reorder);
        check("corrupt", corrupt);
        if (delayNanos < 0 || reorderNanos < 0) {
            throw new IllegalArgumentException("delays must not be negative");
        }
    }

    private static void check(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " probability " + p + " is not in 0..1");
        }
    }

    public LinkFaults withLoss(double p) {
        return new LinkFaults(p, duplicate, reorder, corrupt, delayNanos, reorderNanos);
    }

    public LinkFaults withDuplicate(double p) {
        return new LinkFaults(loss, p, reorder, corrupt, delayNanos, reorderNanos);
    }

    public LinkFaults withReorder(double p, long extraDelayNanos) {
        return new LinkFaults(loss, duplicate, p, corrupt, delayNanos, extraDelayNanos);
    }

    public LinkFaults withCorrupt(double p) {
        return new LinkFaults(loss, duplicate, reorder, p, delayNanos, reorderNanos);
    }

    public LinkFaults withDelay(long nanos) {
        return new LinkFaults(loss, duplicate, reorder, corrupt, nanos, reorderNanos);
    }
}
