package io.jrxe.rnic.cc;

import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

import java.util.ArrayDeque;

/**
 * The default congestion control, {@code none}: no rate control, only a cap on the RC packets a
 * device has in flight (sent, not yet acknowledged) across all its QPs. Without it, a thousand QPs
 * that post at once send a burst no receive socket buffer holds; the losses time out together, are
 * resent together and are lost again. With it, QPs beyond the cap wait their turn and are woken as
 * acknowledgements arrive. rxe leans on the kernel's queues for this; a user-space NIC behind a UDP
 * socket must do it itself. Congestion signals are counted and otherwise ignored, as rxe ignores
 * them.
 */
public final class DeviceWindow implements CongestionControl {
    /** Packets in flight per device: about 4 MiB of 8 KiB socket buffers at the largest MTU. */
    public static final int DEFAULT_PACKETS = 512;

    private final int limit;
    private final ArrayDeque<QpFlow> waiting = new ArrayDeque<>();
    private int inFlight;
    private final SingleWriterCounter cnpsIgnored = new SingleWriterCounter();
    private final SingleWriterCounter marksIgnored = new SingleWriterCounter();

    public DeviceWindow(int limit, CounterRegistry counters) {
        if (limit < 1) {
            throw new IllegalArgumentException("a device window of " + limit + " packets: it needs at least 1");
        }
        this.limit = limit;
        counters.register("jrxe_cc_cnp_ignored", cnpsIgnored);
        counters.register("jrxe_cc_ecn_ce_ignored", marksIgnored);
    }

    /** The factory of a window of {@code limit} packets. */
    public static Factory of(int limit) {
        return (time, counters) -> new DeviceWindow(limit, counters);
    }

    @Override
    public String name() {
        return "none";
    }

    @Override
    public Flow attach(int qpn, Runnable wake) {
        return new QpFlow(wake);
    }

    private void wakeWaiting() {
        while (inFlight < limit && !waiting.isEmpty()) {
            QpFlow next = waiting.pollFirst();
            next.waiting = false;
            next.wake.run();
        }
    }

    private final class QpFlow implements Flow {
        private final Runnable wake;
        private int counted;
        private boolean waiting;

        QpFlow(Runnable wake) {
            this.wake = wake;
        }

        @Override
        public boolean mayTransmit() {
            if (inFlight < limit || counted == 0) {
                return true; // a QP with nothing in flight always gets one packet: no QP starves
            }
            if (!waiting) {
                waiting = true;
                DeviceWindow.this.waiting.addLast(this);
            }
            return false;
        }

        @Override
        public boolean nearLimit() {
            return inFlight >= limit / 2;
        }

        @Override
        public void inFlight(int packets) {
            inFlight += packets - counted;
            counted = packets;
            wakeWaiting();
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
            inFlight(0);
            if (waiting) {
                waiting = false;
                DeviceWindow.this.waiting.remove(this);
            }
        }
    }
}
