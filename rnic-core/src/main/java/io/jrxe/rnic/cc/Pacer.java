package io.jrxe.rnic.cc;

import io.jrxe.wire.time.NicTime;

/**
 * Holds one QP to a rate: packets are spaced by their size at the rate, a packet may go once the
 * previous one's time has passed. A QP held back and woken late keeps up to one packet's time it lost, or
 * its clock's timer granularity ({@link NicTime#timerGranularityNanos}) if more: on real threads a wake
 * comes tens of microseconds late, and a QP at 10 Gbit/s would otherwise send two packets per wake. Time
 * a QP leaves unused beyond that is not saved up, so a burst is at most two packets or the granularity's
 * worth at the rate. A refused QP is woken by a
 * timer on the NIC's clock when its slot comes (at most one pending). Whether a QP at the line rate is
 * paced is its rate's business (under DCQCN it is, under TIMELY not). Runs on the NIC thread; allocates
 * nothing after it is made.
 */
final class Pacer {
    private static final double NANOS_PER_SECOND = 1e9;

    private final NicTime time;
    private final Runnable wake;
    /** Made once: the clock runs it, so that arming the wake allocates nothing. */
    private final Runnable wakeTask = this::wakeFired;
    private long nextSendAt;
    private boolean wakeArmed;
    /** The QP was refused since its last packet: it is sending as fast as the rate lets it. */
    private boolean waited;
    private boolean detached;

    /** @param wake what runs the QP's task again: called once a refused QP's slot has come */
    Pacer(NicTime time, Runnable wake) {
        this.time = time;
        this.wake = wake;
    }

    /** Whether a packet may go now; if not, the QP is woken when it may. */
    boolean mayTransmit() {
        long now = time.nanoTime();
        if (now >= nextSendAt) {
            return true;
        }
        waited = true;
        if (!wakeArmed) {
            wakeArmed = true;
            time.schedule(nextSendAt - now, wakeTask);
        }
        return false;
    }

    /** A packet of this many bytes went at this rate: the next slot is its time later. */
    void transmitted(int bytes, double bitsPerSecond) {
        // rounded up, so that what goes in any window never exceeds the rate (plus the packet in hand)
        long spacing = (long) Math.ceil(bytes * 8 * NANOS_PER_SECOND / bitsPerSecond);
        // A QP that waited for this slot and was woken late (a busy host, an emulated CPU) keeps up to one packet's time
        // it lost, and every QP up to its clock's timer granularity: else every late wake lowers the rate for good.
        // Time a QP leaves unused beyond that is not saved up.
        long now = time.nanoTime();
        long kept = Math.max(time.timerGranularityNanos(), waited ? spacing : 0);
        nextSendAt = Math.max(nextSendAt, now - kept) + spacing;
        waited = false;
    }

    /** The QP is gone: a pending wake finds nothing to do. */
    void detach() {
        detached = true;
    }

    private void wakeFired() {
        wakeArmed = false;
        if (!detached) {
            wake.run();
        }
    }
}
