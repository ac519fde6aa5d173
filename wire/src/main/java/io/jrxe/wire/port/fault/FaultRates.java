package io.jrxe.wire.port.fault;

/**
 * The faults done at random to every packet of one direction, netem's way: {@code loss}, {@code duplicate},
 * {@code reorder} (a packet held for up to {@code reorderNanos} more, so that later ones pass it) and
 * {@code corrupt} are probabilities from 0 to 1, {@code delayNanos} holds every packet for that long.
 */
public record FaultRates(double loss, double duplicate, double reorder, long reorderNanos, long delayNanos,
                         double corrupt) {
    public static final FaultRates NONE = new FaultRates(0, 0, 0, 0, 0, 0);

    public FaultRates {
        probability("loss", loss);
        probability("dup", duplicate);
        probability("reorder", reorder);
        probability("corrupt", corrupt);
        if (reorderNanos < 0 || delayNanos < 0) {
            throw new IllegalArgumentException("a fault's time must not be negative");
        }
    }

    private static void probability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + "=" + p + ": a probability from 0 to 1");
        }
    }

    /** Whether any packet may be touched. */
    public boolean any() {
        return loss > 0 || duplicate > 0 || reorder > 0 || delayNanos > 0 || corrupt > 0;
    }
}
