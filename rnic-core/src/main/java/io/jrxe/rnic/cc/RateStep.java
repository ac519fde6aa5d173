package io.jrxe.rnic.cc;

/**
 * The rule that changed a QP's sending rate: what the trace ({@code RATE_CHANGED}), the tests and the
 * docs follow. One list for every rate-based part, so that a trace event's ordinal names its rule
 * whichever part the NIC runs.
 */
public enum RateStep {
    /** The rate has not changed yet. */
    NONE("unchanged"),
    /** DCQCN: a CNP cut the rate. */
    CUT("a CNP cut it (DCQCN)"),
    /** DCQCN: the current rate went halfway to the target. */
    FAST_RECOVERY("fast recovery, halfway back to the target (DCQCN)"),
    /** DCQCN: the target grew by R_AI. */
    ADDITIVE("additive increase (DCQCN)"),
    /** DCQCN: the target grew by a multiple of R_HAI. */
    HYPER("hyper increase (DCQCN)"),
    /** TIMELY: the RTT was below T_low, the rate grew by delta. */
    RTT_LOW("a round trip below T_low (TIMELY)"),
    /** TIMELY: the RTT was above T_high, the rate shrank in proportion to how far above. */
    RTT_HIGH("a round trip above T_high (TIMELY)"),
    /** TIMELY: the RTT was not rising, the rate grew by delta. */
    GRADIENT_INCREASE("round trips not rising (TIMELY)"),
    /** TIMELY: the RTT kept falling for N samples, the rate grew by N times delta. */
    GRADIENT_HYPER("round trips falling for N samples (TIMELY)"),
    /** TIMELY: the RTT was rising, the rate shrank in proportion to the gradient. */
    GRADIENT_DECREASE("round trips rising (TIMELY)");

    /** Why, in words: what a capture's comment on the QP's next packet says. */
    public final String why;

    RateStep(String why) {
        this.why = why;
    }
}
