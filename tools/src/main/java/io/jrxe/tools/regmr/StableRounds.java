package io.jrxe.tools.regmr;

/**
 * Rounds of timings repeated until their figure settles: the medians of the last {@link #WINDOW} rounds within a
 * tolerance of each other, or a bound on the rounds. A cost measured from a JVM's start is first the interpreter's,
 * then the JIT's, and the first rounds are neither the one nor the other; two rounds alike can be chance while a
 * figure still falls, three are less so. Only the last round is reported; the ones before it were warm-up and are
 * counted nowhere.
 *
 * @param tolerance how far apart the last medians may be to count as settled, as a fraction of the largest (0.05: 5 %)
 * @param maxRounds how many rounds at the most; a figure that has not settled by then is reported as unsettled
 */
record StableRounds(double tolerance, int maxRounds) {
    /** One round: nanosecond timings taken afresh, those that decide when to stop and others taken beside them. */
    @FunctionalInterface
    interface Round {
        Timings run() throws Exception;
    }

    /** A round's timings: {@code main} decides whether the figure settled, {@code beside} is reported with it. */
    record Timings(long[] main, long[] beside) {
    }

    /**
     * What the rounds gave: the spreads of the last round's timings, how many rounds ran (the last included), whether
     * its main median came within the tolerance of the round's before it.
     */
    record Settled(Spread main, Spread beside, int rounds, boolean settled) {
    }

    StableRounds {
        if (!(tolerance > 0 && tolerance < 1)) {
            throw new IllegalArgumentException("a tolerance between 0 and 1, not " + tolerance);
        }
        if (maxRounds < WINDOW) {
            throw new IllegalArgumentException("at least " + WINDOW + " rounds, to compare them: " + maxRounds);
        }
    }

    /** How many rounds in a row must agree. */
    static final int WINDOW = 3;

    Settled run(Round round) throws Exception {
        double[] medians = new double[WINDOW];
        for (int rounds = 1; ; rounds++) {
            Timings timings = round.run();
            Spread current = Spread.ofNanos(timings.main());
            medians[rounds % WINDOW] = current.medianMicros();
            boolean settled = rounds >= WINDOW && close(medians);
            if (settled || rounds == maxRounds) {
                return new Settled(current, Spread.ofNanos(timings.beside()), rounds, settled);
            }
        }
    }

    /** Whether the medians are all within the tolerance of the largest one. */
    boolean close(double... medians) {
        double min = Double.MAX_VALUE;
        double max = 0;
        for (double m : medians) {
            min = Math.min(min, m);
            max = Math.max(max, m);
        }
        return max - min <= tolerance * max;
    }
}
