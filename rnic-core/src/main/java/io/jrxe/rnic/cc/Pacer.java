package io.jrxe.rnic.cc;

import io.jrxe.wire.time.NicTime;

/**
 * Holds one QP to a rate: packets are spaced by their size at the rate, a packet may go once the
 * previous one's time has passed. On a clock whose timers are exact (virtual time) that is all: an
 * exact rate limiter, whose bursts are one packet. On a clock whose timers come late
 * ({@link NicTime#timerGranularityNanos}: real threads, tens of microseconds) every QP keeps that much
 * of the time it left unused, and a QP held back and woken late up to one packet's time if that is
 * more: else every late wake would lower the rate for good, and a QP at 10 Gbit/s would send two
 * packets per wake. A burst is then at most the granularity's worth at the rate, or two packets. A
 * refused QP is woken by a timer on the NIC's clock when its slot comes (at most one pending). Whether a
 * QP at the line rate is paced is its rate's business (under DCQCN it is, under TIMELY not). Runs on
 * the NIC thread; allocates nothing after it is made.
 */
final class Pacer {
    private static final double NANOS_PER_SECOND = 1e9;

    private final NicTime time;
    /** The clock's, read once: it never changes. */
    private final long timerGranularity;
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
        this.timerGranularity = time.timerGranularityNanos();
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
        // Late wakes (a busy host, an emulated CPU) must not lower the rate for good: see the class comment.
        long now = time.nanoTime();
        long kept = timerGranularity == 0 ? 0 : Math.max(timerGranularity, waited ? spacing : 0);
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
