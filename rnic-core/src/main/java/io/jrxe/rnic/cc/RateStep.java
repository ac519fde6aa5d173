package io.jrxe.rnic.cc;

/**
 * The rule that changed a QP's sending rate: what the trace ({@code RATE_CHANGED}), the tests and the
 * docs follow. One list for every rate-based part, so that a trace event's ordinal names its rule
 * whichever part the NIC runs.
 */
public enum RateStep {
    /** The rate has not changed yet. */
    NONE,
    /** DCQCN: a CNP cut the rate. */
    CUT,
    /** DCQCN: the current rate went halfway to the target. */
    FAST_RECOVERY,
    /** DCQCN: the target grew by R_AI. */
    ADDITIVE,
    /** DCQCN: the target grew by a multiple of R_HAI. */
    HYPER,
    /** TIMELY: the RTT was below T_low, the rate grew by delta. */
    RTT_LOW,
    /** TIMELY: the RTT was above T_high, the rate shrank in proportion to how far above. */
    RTT_HIGH,
    /** TIMELY: the RTT was not rising, the rate grew by delta. */
    GRADIENT_INCREASE,
    /** TIMELY: the RTT kept falling for N samples, the rate grew by N times delta. */
    GRADIENT_HYPER,
    /** TIMELY: the RTT was rising, the rate shrank in proportion to the gradient. */
    GRADIENT_DECREASE
}
