package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;
import io.jrxe.wire.time.NicTime;

import java.util.ArrayDeque;

/**
 * The default congestion control, {@code none}: no rate control, only a cap on the RC packets a
 * device has in flight (sent, not yet acknowledged) across all its QPs. Without it, a thousand QPs
 * that post at once send a burst no receive socket buffer holds; the losses time out together, are
 * resent together and are lost again. With it, QPs beyond the cap wait their turn, in order, and are
 * woken as acknowledgements make room. rxe leans on the kernel's queues for this; a user-space NIC
 * behind a UDP socket must do it itself. Congestion signals are counted and otherwise ignored, as rxe
 * ignores them.
 * <p>
 * The cap follows the peer's pace. A peer that answers slowly (a loaded machine, a thousand QPs to
 * serve) would otherwise hold the whole window in its socket queue for longer than an ACK timeout:
 * every QP would time out on a network that lost nothing, and its resent packets would join the
 * queue. So while the window holds QPs back, the cap follows the round trips it measures (a packet
 * of each QP at a time) and the rate of acknowledgements: what the peer answers within the shortest
 * round trip seen plus {@link #QUEUE_TARGET_NANOS}, between {@link #MIN_PACKETS} and the configured
 * most.
 */
public final class DeviceWindow implements CongestionControl {
    /** The most packets in flight per device: about 4 MiB of 8 KiB socket buffers at the largest MTU. */
    public static final int DEFAULT_PACKETS = 512;
    /**
     * The packets a QP woken from the queue may send before it is asked to wait again. Woken for one
     * packet, a QP would send it, ask for its ACK and wait again: with many QPs sharing a full window,
     * every packet would cost an ACK and a turn of the QP's task. A turn is as long as the QP's task's own
     * ({@code DataPath.PACKETS_PER_TURN}): a QP sends from a UDP socket of its own source port, so a turn's
     * packets leave in one GSO send, and shorter turns cost the sender and the receiving peer a system call
     * for every few packets (a thousand QPs with turns of 16 moved half of what one QP does).
     */
    static final int TURN_PACKETS = 64;
    /**
     * The cap before the first measurement: a burst of the most, sent before the peer has shown its pace,
     * could be answered too late by a peer that has just started (its code not yet compiled).
     */
    static final int START_PACKETS = 32;
    /** The fewest packets the cap goes down to. */
    static final int MIN_PACKETS = 16;
    /**
     * The queueing delay the cap aims for: far below the ACK timeouts programs use (perftest's 14 is
     * 67 ms, the tools' and rping's the same or longer), so that waiting in a queue is never a timeout.
     */
    static final long QUEUE_TARGET_NANOS = 4_000_000L;
    /** How long the acknowledgements of one measurement are counted at least (and at least a round trip). */
    static final long SAMPLE_NANOS = 2_000_000L;

    private final NicTime time;
    private final int most;
    private int limit;
    /** QPs held back, served in the order they came. */
    private final ArrayDeque<QpFlow> waiting = new ArrayDeque<>();
    private int inFlight;
    /**
     * Packets in flight sent after their QP's last ask for an ACK: nothing brings their ACK until that QP
     * sends again, which a paced QP waiting for its rate's timer may not do for a while.
     */
    private int unasked;
    /** Room promised to woken QPs whose tasks have not used it yet. */
    private int granted;
    private long sampleStart;
    private long ackedInSample;
    private boolean heldInSample;
    /** The shortest round trip measured: the path and the peer's work, with the least queue seen in it. */
    private long minRttNanos = Long.MAX_VALUE;
    /** The round trip now, smoothed (a weight of 1/8 for each new measurement, as TCP's SRTT). */
    private long smoothedRttNanos;
    private final SingleWriterCounter cnpsIgnored = new SingleWriterCounter();
    private final SingleWriterCounter marksIgnored = new SingleWriterCounter();
    private final SingleWriterCounter resized = new SingleWriterCounter();

    public DeviceWindow(int most, NicTime time, CounterRegistry counters) {
        if (most < 1) {
            throw new IllegalArgumentException("a device window of " + most + " packets: it needs at least 1");
        }
        this.most = most;
        this.limit = Math.min(most, START_PACKETS);
        this.time = time;
        this.sampleStart = time.nanoTime();
        counters.register("jrxe_cc_cnp_ignored", cnpsIgnored);
        counters.register("jrxe_cc_ecn_ce_ignored", marksIgnored);
        counters.register("jrxe_cc_window_resized", resized);
    }

    /** The factory of a window of at most {@code most} packets. */
    public static Factory of(int most) {
        return (time, counters) -> new DeviceWindow(most, time, counters);
    }

    @Override
    public String name() {
        return "none";
    }

    @Override
    public Flow attach(int qpn, Runnable wake) {
        return new QpFlow(wake);
    }

    private int room() {
        return limit - inFlight - granted;
    }

    /** A packet's round trip, from its sending to the ACK that covered it. */
    private void roundTrip(long nanos) {
        minRttNanos = Math.min(minRttNanos, nanos);
        smoothedRttNanos = smoothedRttNanos == 0 ? nanos : smoothedRttNanos + (nanos - smoothedRttNanos) / 8;
    }

    /**
     * The peer acknowledged packets: the cap is set again once a round trip (so that its last change
     * shows in what is measured), from the acknowledgements of that time. With no queue building (the
     * round trip near the shortest seen) it doubles: a long path with room finds it in a few round
     * trips. Otherwise it is what the peer answers within the shortest round trip plus the queueing
     * target.
     */
    private void acknowledged(int packets) {
        ackedInSample += packets;
        long now = time.nanoTime();
        long elapsed = now - sampleStart;
        if (elapsed < Math.max(SAMPLE_NANOS, smoothedRttNanos)) {
            return;
        }
        if (heldInSample && smoothedRttNanos > 0) { // the cap, not the programs' work, decided what went out
            double perNano = (double) ackedInSample / elapsed;
            long next = smoothedRttNanos - minRttNanos < QUEUE_TARGET_NANOS / 4 ? 2L * limit
                    : Math.max(limit / 2, (long) (perNano * (minRttNanos + QUEUE_TARGET_NANOS)));
            int capped = (int) Math.max(Math.min(most, next), Math.min(MIN_PACKETS, most));
            if (capped != limit) {
                limit = capped;
                resized.increment();
            }
        }
        sampleStart = now;
        ackedInSample = 0;
        heldInSample = !waiting.isEmpty();
    }

    /**
     * Wakes the QPs at the head of the queue that the room freed can take, each with a turn of its own:
     * waking them all for one free packet would run every waiting QP's task to let one of them send,
     * for each ACK, and the rest would queue again (with ten thousand QPs, ten thousand tasks per ACK).
     * Room is handed out a whole turn at a time while packets are in flight (their ACKs will bring more):
     * a QP woken for the one or two packets a small ACK freed would ask for an ACK at the end of that
     * short turn, and the small ACK it gets back would wake the next QP for a short turn too, until
     * every packet asked for an ACK of its own. When no packet in flight will be acknowledged (none
     * asked for it), no more room is coming: the QPs at the head get what there is, or they and the
     * QPs whose packets hold the room would wait for one another until an ACK timeout.
     */
    private void wakeWaiting() {
        int turn = Math.min(TURN_PACKETS, Math.max(1, limit / 4));
        while (!waiting.isEmpty() && (room() >= turn || (room() > 0 && inFlight == unasked))) {
            QpFlow next = waiting.pollFirst();
            next.queued = false;
            next.grant = Math.min(TURN_PACKETS, room());
            granted += next.grant;
            next.wake.run();
        }
    }

    private final class QpFlow implements Flow {
        private final Runnable wake;
        private int counted;
        /** Of {@link #counted}, those sent after the QP's last ask for an ACK. */
        private int unaskedHere;
        private int grant;
        private boolean queued;
        /** Packets sent and acknowledged since the QP was made, and the one whose round trip is being timed. */
        private long sent;
        private long acked;
        private long probe;
        private long probeSentAt;
        private boolean probing;

        QpFlow(Runnable wake) {
            this.wake = wake;
        }

        @Override
        public boolean mayTransmit() {
            if (grant > 0) {
                grant--;
                granted--;
                return true;
            }
            if (room() > 0 && waiting.isEmpty()) {
                return true; // nobody queued first: the queue is served in order, so no QP starves
            }
            if (unaskedHere > 0 && unaskedHere == counted) {
                // None of its packets in flight asked for an ACK (its pacer, not the window, stopped it), so none
                // will be acknowledged until it sends again: it sends one past the cap, which asks (refusesNext),
                // else it and the QPs queued for the room its packets hold would wait for its ACK timer.
                return true;
            }
            heldInSample = true;
            if (!queued) {
                queued = true;
                waiting.addLast(this);
            }
            return false;
        }

        @Override
        public boolean mayRespond() {
            return true; // the window counts requests only: see Flow.mayRespond
        }

        @Override
        public boolean nearLimit() {
            return inFlight >= limit / 2;
        }

        @Override
        public boolean refusesNext() {
            return grant == 0 && (room() <= 1 || !waiting.isEmpty());
        }

        @Override
        public void inFlight(int packets) {
            int more = packets - counted;
            inFlight += more;
            counted = packets;
            // New packets have not asked yet; acknowledged ones were the oldest, which asked first.
            int nowUnasked = more > 0 ? unaskedHere + more : Math.min(unaskedHere, packets);
            unasked += nowUnasked - unaskedHere;
            unaskedHere = nowUnasked;
            if (more > 0) {
                sent += more;
                if (!probing) {
                    probing = true;
                    probe = sent;
                    probeSentAt = time.nanoTime();
                }
            } else if (packets == 0) {
                probing = false; // nothing left that an ACK could answer
            }
            wakeWaiting();
        }

        @Override
        public void ackRequested() {
            unasked -= unaskedHere;
            unaskedHere = 0;
        }

        @Override
        public void acknowledged(int packets) {
            acked += packets;
            if (probing && acked >= probe) {
                probing = false;
                roundTrip(time.nanoTime() - probeSentAt);
            }
            DeviceWindow.this.acknowledged(packets);
        }

        @Override
        public void turnEnded() {
            if (grant > 0) {
                granted -= grant;
                grant = 0;
                wakeWaiting();
            }
        }

        @Override
        public void congestionNotified() {
            cnpsIgnored.increment();
        }

        @Override
        public void congestionExperienced() {
            marksIgnored.increment();
        }

        @Override
        public void detach() {
            turnEnded();
            inFlight(0);
            if (queued) {
                queued = false;
                waiting.remove(this);
            }
        }
    }
}
