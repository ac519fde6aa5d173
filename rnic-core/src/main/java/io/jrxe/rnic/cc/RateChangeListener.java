package io.jrxe.rnic.cc;

/**
 * Hears each change of a QP's sending rate, with why it changed: the NIC puts it in its trace.
 * Primitive arguments and an enum, so that a change allocates nothing.
 */
@FunctionalInterface
public interface RateChangeListener {
    /** Hears nothing: a part's listener before the NIC gives it one. */
    RateChangeListener NONE = (qpn, why, bitsPerSecond) -> { };

    /**
     * @param qpn           the QP whose rate changed
     * @param why           the rule that changed it
     * @param bitsPerSecond the QP's rate now
     */
    void rateChanged(int qpn, RateStep why, long bitsPerSecond);
}
