package io.jrxe.rnic.cc;

import io.jrxe.wire.quantity.BitRate;
import io.jrxe.wire.quantity.TimeSpan;

/**
 * The settings of TIMELY's rate computation (Mittal et al., "TIMELY: RTT-based Congestion Control
 * for the Datacenter", SIGCOMM 2015). Rates in bits per second, times in nanoseconds; where each
 * default comes from is said at it and in docs/congestion.md.
 *
 * @param lineRateBitsPerSecond the most a QP sends at; a QP at it is not paced
 * @param minRateBitsPerSecond  the least a QP is cut down to
 * @param alpha                 the weight of a new RTT difference in the moving average of differences
 * @param beta                  the multiplicative-decrease factor
 * @param additiveStepBitsPerSecond delta: what an additive increase adds
 * @param lowThresholdNanos     T_low: below it the rate rises by delta whatever the gradient
 * @param highThresholdNanos    T_high: above it the rate falls by beta (1 - T_high / rtt)
 * @param minRttNanos           minRTT: what the averaged RTT difference is divided by (the gradient)
 * @param hyperIncreaseSamples  N: after this many samples in a row with a negative gradient, an
 *                              increase adds N times delta (hyperactive increase)
 */
public record TimelyParameters(long lineRateBitsPerSecond, long minRateBitsPerSecond, double alpha, double beta,
                               long additiveStepBitsPerSecond, long lowThresholdNanos, long highThresholdNanos,
                               long minRttNanos, int hyperIncreaseSamples) {
    /** Declared first: the constants below are checked when they are made. */
    private static final ParameterChecks CHECKS = new ParameterChecks("TIMELY");

    /** 10 Gbit/s: jrxe's choice, as DCQCN's. */
    public static final long DEFAULT_LINE_RATE = DcqcnParameters.DEFAULT_LINE_RATE;
    /** 100 Mbit/s: jrxe's choice, as DCQCN's floor. */
    public static final long DEFAULT_MIN_RATE = DcqcnParameters.DEFAULT_MIN_RATE;
    /** 0.875 (ns-3's RDMA model, RdmaHw's TimelyAlpha). */
    public static final double DEFAULT_ALPHA = 0.875;
    /** 0.8 (the paper as commonly quoted; ns-3's RdmaHw TimelyBeta). */
    public static final double DEFAULT_BETA = 0.8;
    /** delta = 10 Mbit/s (the paper as commonly quoted). */
    public static final long DEFAULT_ADDITIVE_STEP = 10_000_000L;
    /** T_low = 50 µs (the paper as commonly quoted; ns-3's RdmaHw TimelyTLow). */
    public static final long DEFAULT_LOW_THRESHOLD = 50_000L;
    /** T_high = 500 µs (the paper as commonly quoted; ns-3's RdmaHw TimelyTHigh). */
    public static final long DEFAULT_HIGH_THRESHOLD = 500_000L;
    /** minRTT = 20 µs (ns-3's RdmaHw TimelyMinRtt). */
    public static final long DEFAULT_MIN_RTT = 20_000L;
    /** N = 5 (the paper as commonly quoted). */
    public static final int DEFAULT_HYPER_INCREASE_SAMPLES = 5;

    public static final TimelyParameters DEFAULTS = new TimelyParameters(DEFAULT_LINE_RATE, DEFAULT_MIN_RATE,
            DEFAULT_ALPHA, DEFAULT_BETA, DEFAULT_ADDITIVE_STEP, DEFAULT_LOW_THRESHOLD, DEFAULT_HIGH_THRESHOLD,
            DEFAULT_MIN_RTT, DEFAULT_HYPER_INCREASE_SAMPLES);

    /** The names {@link #with(String, String)} takes. */
    public static final String KEYS = "line_rate, min_rate, alpha, beta, delta, t_low, t_high, min_rtt, hai_after";

    public TimelyParameters {
        CHECKS.positive(lineRateBitsPerSecond, "a line rate", "bit/s");
        CHECKS.require(minRateBitsPerSecond > 0 && minRateBitsPerSecond <= lineRateBitsPerSecond,
                "a minimum rate of " + minRateBitsPerSecond + " bit/s: it must be positive and at most the line rate ("
                        + lineRateBitsPerSecond + ")");
        CHECKS.require(alpha > 0 && alpha <= 1, "an alpha of " + alpha + ": it must be above 0 and at most 1");
        CHECKS.require(beta > 0 && beta <= 1, "a beta of " + beta + ": it must be above 0 and at most 1");
        CHECKS.positive(additiveStepBitsPerSecond, "an additive step delta", "bit/s");
        CHECKS.positive(lowThresholdNanos, "a T_low", "ns");
        CHECKS.require(highThresholdNanos > lowThresholdNanos, "a T_high of " + highThresholdNanos
                + " ns: it must be above T_low (" + lowThresholdNanos + " ns)");
        CHECKS.positive(minRttNanos, "a minRTT", "ns");
        CHECKS.require(hyperIncreaseSamples > 0,
                "N = " + hyperIncreaseSamples + " samples before hyperactive increase: it must be positive");
    }

    /**
     * These settings with one changed, by its name in {@link #KEYS} and its value as people write it: a rate with K,
     * M or G (powers of 1000, bit/s), a time with ns, us, ms or s, alpha and beta as numbers or fractions.
     */
    public TimelyParameters with(String key, String value) {
        return switch (key) {
            case "line_rate" -> withRates(BitRate.parse(value), minRateBitsPerSecond);
            case "min_rate" -> withRates(lineRateBitsPerSecond, BitRate.parse(value));
            case "alpha" -> withGains(SettingNumbers.fraction(value), beta);
            case "beta" -> withGains(alpha, SettingNumbers.fraction(value));
            case "delta" -> withIncrease(BitRate.parse(value), hyperIncreaseSamples);
            case "hai_after" -> withIncrease(additiveStepBitsPerSecond, SettingNumbers.count(value));
            case "t_low" -> withThresholds(TimeSpan.parse(value), highThresholdNanos, minRttNanos);
            case "t_high" -> withThresholds(lowThresholdNanos, TimeSpan.parse(value), minRttNanos);
            case "min_rtt" -> withThresholds(lowThresholdNanos, highThresholdNanos, TimeSpan.parse(value));
            default -> throw new IllegalArgumentException("TIMELY has no setting '" + key + "': there are " + KEYS);
        };
    }

    public TimelyParameters withRates(long lineBitsPerSecond, long minBitsPerSecond) {
        return new TimelyParameters(lineBitsPerSecond, minBitsPerSecond, alpha, beta, additiveStepBitsPerSecond,
                lowThresholdNanos, highThresholdNanos, minRttNanos, hyperIncreaseSamples);
    }

    public TimelyParameters withGains(double newAlpha, double newBeta) {
        return new TimelyParameters(lineRateBitsPerSecond, minRateBitsPerSecond, newAlpha, newBeta,
                additiveStepBitsPerSecond, lowThresholdNanos, highThresholdNanos, minRttNanos, hyperIncreaseSamples);
    }

    public TimelyParameters withIncrease(long deltaBitsPerSecond, int samplesBeforeHyper) {
        return new TimelyParameters(lineRateBitsPerSecond, minRateBitsPerSecond, alpha, beta, deltaBitsPerSecond,
                lowThresholdNanos, highThresholdNanos, minRttNanos, samplesBeforeHyper);
    }

    public TimelyParameters withThresholds(long lowNanos, long highNanos, long minRtt) {
        return new TimelyParameters(lineRateBitsPerSecond, minRateBitsPerSecond, alpha, beta,
                additiveStepBitsPerSecond, lowNanos, highNanos, minRtt, hyperIncreaseSamples);
    }
}
