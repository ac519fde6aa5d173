package io.jrxe.rnic.cc;

import io.jrxe.wire.time.NicTime;

/**
 * One QP's TIMELY rate (Mittal et al., SIGCOMM 2015): the rate moves at each round-trip sample, by
 * the sample itself and by how fast the round trips are growing. Deterministic: it reads only its
 * samples and its {@link NicTime}, so a test on virtual time sees the same rates every run.
 * <ul>
 *   <li><b>The gradient</b>: each sample's difference from the previous one goes into a moving
 *       average (a new difference weighs alpha), which divided by minRTT is the normalized
 *       gradient. The first sample has no previous one: it leaves the average at 0.</li>
 *   <li><b>Below T_low</b> the rate rises by delta; <b>above T_high</b> it is multiplied by
 *       1 - beta (1 - T_high / rtt): the further above, the deeper the cut.</li>
 *   <li><b>In between</b> a gradient of 0 or less raises the rate by delta, or by N times delta once
 *       the gradient has been negative for N samples in a row (hyperactive increase); a positive
 *       gradient multiplies the rate by 1 - beta times the gradient.</li>
 *   <li>The rate stays between the minimum and the line rate. A QP below the line rate is held to
 *       it by a {@link Pacer}; at the line rate it is not paced.</li>
 * </ul>
 * CNPs are not its input: it leaves them to the window. Runs on the NIC thread; allocates nothing
 * after it is made.
 */
public final class TimelyRate implements PacedRate {
    private final TimelyParameters p;
    private final int qpn;
    private final RateChangeListener changes;
    private final TimelyCounters counters;
    private final Pacer pacer;

    private double rate;
    private boolean sampled;
    private long previousRtt;
    private double rttDifference;
    private int negativeGradients;
    private RateStep lastStep = RateStep.NONE;
    private boolean detached;

    /**
     * @param qpn      the QP's number, which the rate changes are reported with
     * @param wake     what runs the QP's task again: called once the pacer lets a refused QP send
     * @param counters the device's, which this QP's samples and steps add to
     * @param changes  hears each change of the rate
     */
    public TimelyRate(TimelyParameters parameters, NicTime time, int qpn, Runnable wake, TimelyCounters counters,
                      RateChangeListener changes) {
        this.p = parameters;
        this.qpn = qpn;
        this.changes = changes;
        this.counters = counters;
        this.pacer = new Pacer(time, wake);
        this.rate = parameters.lineRateBitsPerSecond();
    }

    public double currentRate() {
        return rate;
    }

    /** The moving average of RTT differences divided by minRTT, as of the last sample. */
    public double normalizedGradient() {
        return rttDifference / p.minRttNanos();
    }

    /** The rule the last sample applied (whether or not the rate moved: at a bound it may not). */
    public RateStep lastStep() {
        return lastStep;
    }

    /** True while the QP sends below the line rate: it is paced. */
    public boolean limited() {
        return rate < p.lineRateBitsPerSecond();
    }

    /** A round trip of the QP's took this long: the rate moves by TIMELY's rules. */
    @Override
    public void roundTrip(long rtt) {
        if (detached) {
            return;
        }
        counters.rttSamples.increment();
        if (sampled) {
            rttDifference = (1 - p.alpha()) * rttDifference + p.alpha() * (rtt - previousRtt);
        }
        sampled = true;
        previousRtt = rtt;
        double gradient = normalizedGradient();
        if (rtt < p.lowThresholdNanos()) {
            negativeGradients = 0;
            moveTo(rate + p.additiveStepBitsPerSecond(), RateStep.RTT_LOW);
        } else if (rtt > p.highThresholdNanos()) {
            negativeGradients = 0;
            moveTo(rate * (1 - p.beta() * (1 - (double) p.highThresholdNanos() / rtt)), RateStep.RTT_HIGH);
        } else if (gradient <= 0) {
            negativeGradients = gradient < 0 ? negativeGradients + 1 : 0;
            int n = p.hyperIncreaseSamples();
            if (negativeGradients >= n) {
                moveTo(rate + (double) n * p.additiveStepBitsPerSecond(), RateStep.GRADIENT_HYPER);
            } else {
                moveTo(rate + p.additiveStepBitsPerSecond(), RateStep.GRADIENT_INCREASE);
            }
        } else {
            negativeGradients = 0;
            moveTo(rate * (1 - p.beta() * gradient), RateStep.GRADIENT_DECREASE);
        }
    }

    /** TIMELY does not act on CNPs: the window counts them as ignored. */
    @Override
    public boolean actOnCnp() {
        return false;
    }

    /** Whether the pacer lets a packet go now; if not, the QP is woken when it may. */
    @Override
    public boolean mayTransmit() {
        return !limited() || pacer.mayTransmit();
    }

    /** A packet of this many bytes went: the pacer's next slot. */
    @Override
    public void transmitted(int bytes) {
        if (limited()) {
            pacer.transmitted(bytes, rate);
        }
    }

    /** The QP is gone: its pending wake finds nothing to do, and it is no longer a limited QP. */
    @Override
    public void detach() {
        if (!detached && limited()) {
            counters.rateLimitedQps.add(-1);
        }
        detached = true;
        pacer.detach();
    }

    /** The rate becomes this, within its bounds; a change is counted and reported with its rule. */
    private void moveTo(double wanted, RateStep why) {
        lastStep = why;
        double line = p.lineRateBitsPerSecond();
        double next = Math.min(line, Math.max(p.minRateBitsPerSecond(), wanted));
        if (next == rate) {
            return;
        }
        boolean wasLimited = limited();
        (next > rate ? counters.rateIncreased : counters.rateDecreased).increment();
        rate = next;
        if (wasLimited != limited()) {
            counters.rateLimitedQps.add(wasLimited ? -1 : 1);
        }
        changes.rateChanged(qpn, why, (long) rate);
    }
}
