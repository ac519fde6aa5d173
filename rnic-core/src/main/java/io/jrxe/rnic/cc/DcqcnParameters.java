package io.jrxe.rnic.cc;

import io.jrxe.wire.quantity.BitRate;
import io.jrxe.wire.quantity.ByteSize;
import io.jrxe.wire.quantity.TimeSpan;

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
    /** R_HAI = 100 Mbit/s: jrxe's choice, the paper as quoted giving none ({@code profile=connectx} has 50 Mb/s). */
    public static final long DEFAULT_HYPER_INCREASE = 100_000_000L;

    public static final DcqcnParameters DEFAULTS = new DcqcnParameters(DEFAULT_LINE_RATE, DEFAULT_MIN_RATE,
            DEFAULT_GAIN, DEFAULT_ALPHA_TIMER, DEFAULT_RATE_INCREASE_TIMER, DEFAULT_BYTE_COUNTER,
            DEFAULT_FAST_RECOVERY_STEPS, DEFAULT_ADDITIVE_INCREASE, DEFAULT_HYPER_INCREASE);

    /** The names {@link #with(String, String)} takes, in the order of the paper's table. */
    public static final String KEYS = "profile, line_rate, min_rate, g, alpha_timer, increase_timer, byte_counter, "
            + "fast_recovery, ai, hai";

    /**
     * The defaults of NVIDIA ConnectX-4 and later NICs over this record's line rate: g = 5/1024, K = 1 µs and a
     * 1 Mbit/s floor (NVIDIA's "DCQCN CC Parameters" page: dce_tcp_g 1019, dce_tcp_rtt 1, rpg_min_rate 1); T = 300 µs,
     * F = 1, R_AI = 5 and R_HAI = 50 Mbit/s (what the HPCC repository's ns-3 runs set for the NIC's DCQCN at
     * 25 Gbit/s); B = 32,767 bytes (rpg_byte_reset as commonly quoted). Sources in docs/congestion.md.
     */
    public DcqcnParameters connectX() {
        return new DcqcnParameters(lineRateBitsPerSecond, Math.min(1_000_000L, lineRateBitsPerSecond), 5.0 / 1024,
                1_000L, 300_000L, 32_767L, 1, 5_000_000L, 50_000_000L);
    }

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


    /**
     * These settings with one changed, by its name in {@link #KEYS} and its value as people write it: a rate with K,
     * M or G (powers of 1000, bit/s), a time with ns, us, ms or s, a size in bytes with K or M (powers of 1024), g as
     * a number or a fraction (1/256); {@code profile=paper} is the paper's defaults, {@code profile=connectx}
     * ConnectX's ({@link #connectX()}), both at this line rate.
     */
    public DcqcnParameters with(String key, String value) {
        return switch (key) {
            case "profile" -> switch (value) {
                case "paper" -> DEFAULTS.withLineRate(lineRateBitsPerSecond);
                case "connectx" -> connectX();
                default -> throw new IllegalArgumentException("DCQCN: profile=" + value + ": paper or connectx");
            };
            case "line_rate" -> withLineRate(BitRate.parse(value));
            case "min_rate" -> withMinRate(BitRate.parse(value));
            case "g" -> withGain(SettingNumbers.fraction(value));
            case "alpha_timer" -> withTimers(TimeSpan.parse(value), rateIncreaseTimerNanos);
            case "increase_timer" -> withTimers(alphaTimerNanos, TimeSpan.parse(value));
            case "byte_counter" -> withByteCounter(ByteSize.parse(value));
            case "fast_recovery" -> withIncrease(SettingNumbers.count(value), additiveIncreaseBitsPerSecond,
                    hyperIncreaseBitsPerSecond);
            case "ai" -> withIncrease(fastRecoverySteps, BitRate.parse(value), hyperIncreaseBitsPerSecond);
            case "hai" -> withIncrease(fastRecoverySteps, additiveIncreaseBitsPerSecond, BitRate.parse(value));
            default -> throw new IllegalArgumentException("DCQCN has no setting '" + key + "': there are " + KEYS);
        };
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
