package io.jrxe.rnic.cc;

import io.jrxe.wire.time.NicTime;

/**
 * One QP's DCQCN rate limiter, the reaction point of Zhu et al. (SIGCOMM 2015), and the pacer
 * that holds the QP to its rate. Deterministic: it reads only its {@link NicTime}, so a test on
 * virtual time sees the same rates every run.
 * <ul>
 *   <li><b>A CNP</b> cuts the rate: the target becomes the current rate, the current rate
 *       shrinks by alpha/2, alpha moves toward 1 by g; the increase counters start again.</li>
 *   <li><b>Alpha decays</b> by (1 - g) for every alpha-timer period without a CNP. It is
 *       worked out when the next CNP comes (periods since the last one), not by a timer per
 *       QP: the result is the same and an idle QP costs nothing.</li>
 *   <li><b>The rate rises</b> one step at each rate-increase timer period and at each byte
 *       counter's worth of bytes sent, counted apart. While both counts are below F, each step
 *       is fast recovery (the current rate goes halfway to the target); once one of them reaches
 *       F, additive increase (the target grows by R_AI first); once both have, hyper increase
 *       (the target grows by R_HAI times the steps past F). Back at the line rate, it stops.</li>
 *   <li><b>The {@link Pacer}</b> spaces packets by their size at the current rate. A QP at the
 *       line rate is not paced.</li>
 * </ul>
 * Runs on the NIC thread; allocates nothing after it is made.
 */
public final class DcqcnRate implements PacedRate {
    private final DcqcnParameters p;
    private final NicTime time;
    private final int qpn;
    private final RateChangeListener changes;
    private final DcqcnCounters counters;
    /** Made once: the timer tasks the clock runs, so that arming a timer allocates nothing. */
    private final Runnable increaseTimerTask = this::increaseTimerFired;
    private final Pacer pacer;

    private double currentRate;
    private double targetRate;
    private double alpha = 1; // the paper starts alpha at 1: the first CNP halves the rate
    private long alphaAnchor;
    private boolean cnpSeen;
    private int timerSteps;
    private int byteSteps;
    private long bytesTowardStep;
    private RateStep lastStep = RateStep.NONE;
    /** When the rate-increase timer is due; it restarts at each CNP (lazy: the task checks it). */
    private long increaseDue;
    private boolean increaseTimerArmed;
    private boolean detached;

    /**
     * @param qpn      the QP's number, which the rate changes are reported with
     * @param wake     what runs the QP's task again: called once the pacer lets a refused QP send
     * @param counters the device's, which this QP's cuts and steps add to
     * @param changes  hears each change of the rate
     */
    public DcqcnRate(DcqcnParameters parameters, NicTime time, int qpn, Runnable wake, DcqcnCounters counters,
                     RateChangeListener changes) {
        this.p = parameters;
        this.time = time;
        this.qpn = qpn;
        this.pacer = new Pacer(time, wake);
        this.changes = changes;
        this.counters = counters;
        this.currentRate = parameters.lineRateBitsPerSecond();
        this.targetRate = currentRate;
    }

    public double currentRate() {
        return currentRate;
    }

    public double targetRate() {
        return targetRate;
    }

    /** Alpha as of now, with the decay of the periods since the last CNP. */
    public double alpha() {
        return cnpSeen ? alpha * decay(periodsSince(alphaAnchor)) : alpha;
    }

    public RateStep lastStep() {
        return lastStep;
    }

    /** True while the QP sends below the line rate: its rate is rising (counted in jrxe_cc_rate_limited_qps). */
    public boolean limited() {
        return currentRate < p.lineRateBitsPerSecond();
    }

    /** A CNP came for the QP: cut the rate (the paper's rate reduction) and restart the increase. */
    public void congestionNotified() {
        long now = time.nanoTime();
        if (cnpSeen) {
            alpha *= decay(periodsSince(alphaAnchor));
        }
        cnpSeen = true;
        alphaAnchor = now;
        boolean wasLimited = limited();
        targetRate = currentRate;
        currentRate = Math.max(p.minRateBitsPerSecond(), currentRate * (1 - alpha / 2));
        if (!wasLimited && limited()) {
            counters.rateLimitedQps.increment();
        }
        alpha = (1 - p.gain()) * alpha + p.gain();
        timerSteps = 0;
        byteSteps = 0;
        bytesTowardStep = 0;
        lastStep = RateStep.CUT;
        counters.rateDecreased.increment();
        changes.rateChanged(qpn, RateStep.CUT, (long) currentRate);
        increaseDue = now + p.rateIncreaseTimerNanos();
        if (!increaseTimerArmed) {
            increaseTimerArmed = true;
            time.schedule(p.rateIncreaseTimerNanos(), increaseTimerTask);
        }
    }

    /** Counted as acted on, and the rate cut. */
    @Override
    public boolean actOnCnp() {
        counters.cnpsActedOn.increment();
        congestionNotified();
        return true;
    }

    /** DCQCN does not use round-trip times. */
    @Override
    public void roundTrip(long nanos) {
    }

    /**
     * Whether the pacer lets a packet go now; if not, the QP is woken when it may. A QP at the line rate is paced at
     * it: the line rate is a NIC port's, and a jrxe NIC's UDP socket has no rate of its own to hold the QP to it.
     */
    @Override
    public boolean mayTransmit() {
        return pacer.mayTransmit();
    }

    /** Held as a new packet is: a NIC's rate limiter holds everything its QP sends. */
    @Override
    public boolean mayResend() {
        return mayTransmit();
    }

    /** Charged as a new packet is. */
    @Override
    public void resent(int bytes) {
        transmitted(bytes);
    }

    /** A packet of this many bytes went: the pacer's next slot, and, below the line rate, the byte counter's share. */
    @Override
    public void transmitted(int bytes) {
        pacer.transmitted(bytes, currentRate);
        if (!limited()) {
            return;
        }
        bytesTowardStep += bytes;
        while (bytesTowardStep >= p.byteCounterBytes() && limited()) {
            bytesTowardStep -= p.byteCounterBytes();
            increase(false);
        }
    }

    /** The QP is gone: its pending timers find nothing to do, and it is no longer a limited QP. */
    @Override
    public void detach() {
        if (!detached && limited()) {
            counters.rateLimitedQps.add(-1);
        }
        detached = true;
        pacer.detach();
    }

    private void increaseTimerFired() {
        increaseTimerArmed = false;
        if (detached || !limited()) {
            return;
        }
        long now = time.nanoTime();
        if (now >= increaseDue) {
            increase(true);
            increaseDue = now + p.rateIncreaseTimerNanos();
        }
        if (limited()) {
            increaseTimerArmed = true;
            time.schedule(increaseDue - now, increaseTimerTask);
        }
    }

    /** One step up, from the timer or the byte counter: which rule applies is the paper's. */
    private void increase(boolean byTimer) {
        int fast = p.fastRecoverySteps();
        int most = Math.max(timerSteps, byteSteps);
        int least = Math.min(timerSteps, byteSteps);
        double line = p.lineRateBitsPerSecond();
        if (most < fast) {
            lastStep = RateStep.FAST_RECOVERY;
        } else if (least < fast) {
            lastStep = RateStep.ADDITIVE;
            targetRate = Math.min(line, targetRate + p.additiveIncreaseBitsPerSecond());
        } else {
            lastStep = RateStep.HYPER;
            targetRate = Math.min(line, targetRate + (double) p.hyperIncreaseBitsPerSecond() * (least - fast + 1));
        }
        currentRate = Math.min(line, (currentRate + targetRate) / 2);
        if (line - currentRate < 1) {
            currentRate = line; // halving the gap never closes it: within a bit per second is there
            counters.rateLimitedQps.add(-1);
        }
        if (byTimer) {
            timerSteps++;
        } else {
            byteSteps++;
        }
        counters.rateIncreased.increment();
        changes.rateChanged(qpn, lastStep, (long) currentRate);
    }

    private long periodsSince(long anchor) {
        return (time.nanoTime() - anchor) / p.alphaTimerNanos();
    }

    private double decay(long periods) {
        return Math.pow(1 - p.gain(), periods);
    }
}
