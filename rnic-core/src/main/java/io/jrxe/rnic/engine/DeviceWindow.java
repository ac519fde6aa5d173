package io.jrxe.rnic.engine;

import io.jrxe.verbs.QpType;
import io.jrxe.wire.psn.Psn;

import java.util.ArrayDeque;

/**
 * A cap on the RC packets a device has in flight (sent, not yet acknowledged) across all its
 * QPs. Without it, a thousand QPs that post at once send a burst no receive socket buffer
 * holds; the losses time out together, are resent together and are lost again. With it, QPs
 * beyond the cap wait their turn and are woken as acknowledgements arrive. rxe leans on the
 * kernel's queues for this; a user-space NIC behind a UDP socket must do it itself.
 */
final class DeviceWindow {
    /** Packets in flight per device: about 4 MiB of 8 KiB socket buffers at the largest MTU. */
    static final int PACKETS = 512;

    private final DataPath dp;
    private final ArrayDeque<QpEngine> waiting = new ArrayDeque<>();
    private int inFlight;

    DeviceWindow(DataPath dp) {
        this.dp = dp;
    }

    /** True when the QP may send one more packet now; else it is queued to be woken. */
    boolean open(QpEngine e) {
        if (inFlight < PACKETS || e.req.countedInFlight == 0) {
            return true; // a QP with nothing in flight always gets one packet: no QP starves
        }
        if (!e.req.waitingForWindow) {
            e.req.waitingForWindow = true;
            waiting.addLast(e);
        }
        return false;
    }

    /** Recounts a QP's packets in flight after its PSN or its acknowledged PSN moved. */
    void update(QpEngine e) {
        int now = e.qp.type() == QpType.RC ? Psn.distance(e.comp.compPsn, e.req.psn) : 0;
        inFlight += now - e.req.countedInFlight;
        e.req.countedInFlight = now;
        while (inFlight < PACKETS && !waiting.isEmpty()) {
            QpEngine next = waiting.pollFirst();
            next.req.waitingForWindow = false;
            dp.schedule(next);
        }
    }

    int inFlight() {
        return inFlight;
    }
}
