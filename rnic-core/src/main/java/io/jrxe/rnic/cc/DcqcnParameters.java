package io.jrxe.rnic.cc;

/**
 * The settings of DCQCN's reaction point (Zhu et al., "Congestion Control for Large-Scale RDMA
 * Deployments", SIGCOMM 2015), each with the value the paper runs with unless said otherwise.
 * Rates are in bits per second, times in nanoseconds, sizes in bytes.
 *
 * @param lineRateBitsPerSecond      the most a QP sends at; a QP that has had no CNP, or has recovered
 *                                   to it, is not paced at all (the wire is the limit then)
 * @param minRateBitsPerSecond       the least a QP is cut down to (ns-3's RDMA model, RdmaHw's MinRate)
 * @param gain                       g, the weight of each new observation in alpha
 * @param alphaTimerNanos            K: alpha decays by (1 - g) for each K without a CNP
 * @param rateIncreaseTimerNanos     T: each T without a CNP is one step of rate increase
 * @param byteCounterBytes           B: each B bytes sent without a CNP is one step of rate increase
 * @param fastRecoverySteps          F: the steps of fast recovery before additive increase starts
 * @param additiveIncreaseBitsPerSecond R_AI: what each additive step adds to the target rate
 * @param hyperIncreaseBitsPerSecond R_HAI: what each hyper step adds to the target rate, times the step
 */
public record DcqcnParameters(long lineRateBitsPerSecond, long minRateBitsPerSecond, double gain,
                              long alphaTimerNanos, long rateIncreaseTimerNanos, long byteCounterBytes,
                              int fastRecoverySteps, long additiveIncreaseBitsPerSecond,
                              long hyperIncreaseBitsPerSecond) {
    /** Declared first: the constants below are checked when they are made. */
    private static final ParameterChecks CHECKS = new ParameterChecks("DCQCN");

    /** 10 Gbit/s: the NICs of the paper's testbed were 40 Gbit/s; 10 is a round figure a laptop's loopback reaches. */
    public static final long DEFAULT_LINE_RATE = 10_000_000_000L;
    /** 100 Mbit/s: the paper gives no floor; ns-3's RDMA model (the HPCC repository) uses this one. */
    public static final long DEFAULT_MIN_RATE = 100_000_000L;
    /** g = 1/256 (the paper). */
    public static final double DEFAULT_GAIN = 1.0 / 256;
    /** K = 55 µs (the paper): longer than the notification point's 50 µs CNP interval, so alpha decays only once CNPs stop. */
    public static final long DEFAULT_ALPHA_TIMER = 55_000L;
    /** T = 55 µs (the paper). */
    public static final long DEFAULT_RATE_INCREASE_TIMER = 55_000L;
    /** B = 10 MB (the paper). */
    public static final long DEFAULT_BYTE_COUNTER = 10L * 1024 * 1024;
    /** F = 5 (the paper). */
    public static final int DEFAULT_FAST_RECOVERY_STEPS = 5;
    /** R_AI = 40 Mbit/s (the paper). */
    public static final long DEFAULT_ADDITIVE_INCREASE = 40_000_000L;
    /** R_HAI = 100 Mbit/s: jrxe's choice, not checked against the paper's text. */
    public static final long DEFAULT_HYPER_INCREASE = 100_000_000L;

    public static final DcqcnParameters DEFAULTS = new DcqcnParameters(DEFAULT_LINE_RATE, DEFAULT_MIN_RATE,
            DEFAULT_GAIN, DEFAULT_ALPHA_TIMER, DEFAULT_RATE_INCREASE_TIMER, DEFAULT_BYTE_COUNTER,
            DEFAULT_FAST_RECOVERY_STEPS, DEFAULT_ADDITIVE_INCREASE, DEFAULT_HYPER_INCREASE);

    public DcqcnParameters {
        CHECKS.positive(lineRateBitsPerSecond, "a line rate", "bit/s");
        CHECKS.require(minRateBitsPerSecond > 0 && minRateBitsPerSecond <= lineRateBitsPerSecond,
                "a minimum rate of " + minRateBitsPerSecond + " bit/s: it must be positive and at most the line rate ("
                        + lineRateBitsPerSecond + ")");
        CHECKS.require(gain > 0 && gain < 1, "a gain g of " + gain + ": it must be above 0 and below 1");
        CHECKS.positive(alphaTimerNanos, "an alpha timer", "ns");
        CHECKS.positive(rateIncreaseTimerNanos, "a rate-increase timer", "ns");
        CHECKS.positive(byteCounterBytes, "a byte counter", "bytes");
        CHECKS.require(fastRecoverySteps >= 0, "F = " + fastRecoverySteps + " fast-recovery steps: it cannot be negative");
        CHECKS.positive(additiveIncreaseBitsPerSecond, "an additive increase", "bit/s");
        CHECKS.positive(hyperIncreaseBitsPerSecond, "a hyper increase", "bit/s");
    }


    public DcqcnParameters withLineRate(long bitsPerSecond) {
        return new DcqcnParameters(bitsPerSecond, Math.min(minRateBitsPerSecond, bitsPerSecond), gain,
                alphaTimerNanos, rateIncreaseTimerNanos, byteCounterBytes, fastRecoverySteps,
                additiveIncreaseBitsPerSecond, hyperIncreaseBitsPerSecond);
    }

    public DcqcnParameters withMinRate(long bitsPerSecond) {
        return new DcqcnParameters(lineRateBitsPerSecond, bitsPerSecond, gain, alphaTimerNanos,
                rateIncreaseTimerNanos, byteCounterBytes, fastRecoverySteps, additiveIncreaseBitsPerSecond,
                hyperIncreaseBitsPerSecond);
    }

    public DcqcnParameters withGain(double g) {
        return new DcqcnParameters(lineRateBitsPerSecond, minRateBitsPerSecond, g, alphaTimerNanos,
                rateIncreaseTimerNanos, byteCounterBytes, fastRecoverySteps, additiveIncreaseBitsPerSecond,
                hyperIncreaseBitsPerSecond);
    }

    public DcqcnParameters withTimers(long alphaNanos, long rateIncreaseNanos) {
        return new DcqcnParameters(lineRateBitsPerSecond, minRateBitsPerSecond, gain, alphaNanos,
                rateIncreaseNanos, byteCounterBytes, fastRecoverySteps, additiveIncreaseBitsPerSecond,
                hyperIncreaseBitsPerSecond);
    }

    public DcqcnParameters withByteCounter(long bytes) {
        return new DcqcnParameters(lineRateBitsPerSecond, minRateBitsPerSecond, gain, alphaTimerNanos,
                rateIncreaseTimerNanos, bytes, fastRecoverySteps, additiveIncreaseBitsPerSecond,
                hyperIncreaseBitsPerSecond);
    }

    public DcqcnParameters withIncrease(int fastSteps, long additiveBitsPerSecond, long hyperBitsPerSecond) {
        return new DcqcnParameters(lineRateBitsPerSecond, minRateBitsPerSecond, gain, alphaTimerNanos,
                rateIncreaseTimerNanos, byteCounterBytes, fastSteps, additiveBitsPerSecond, hyperBitsPerSecond);
    }
}
