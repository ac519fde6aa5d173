package io.jrxe.rnic.engine;

import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.psn.Psn;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engines' state for one QP, owned by the NIC thread, in one holder per engine as rxe keeps
 * qp->req, qp->comp and qp->resp: each engine writes only its own holder and reads the others'.
 * What one engine leaves for another is a hand-off in its own holder (the completer's retry and
 * RNR wait, read by the requester) or the shared WQE's state, and the QP's one task runs them in
 * turn: the completer, then the requester, then the responder's waiting responses.
 */
final class QpEngine {
    final QueuePair qp;
    final QpHandle handle;
    /** The connected peer (RC, UC) and the QP's own address, from its address vector at RTR. */
    PeerAddress peer;
    PeerAddress local;
    int srcPort;
    /** The source port and peer this QP asked its port to prepare at RTR, until it gives them back; -1 for none. */
    int preparedSrcPort = -1;
    PeerAddress preparedPeer;
    /** When the notification point last sent this QP's peer a CNP (NicTime), or NO_CNP_YET. */
    long lastCnpNanos = NotificationPoint.NO_CNP_YET;

    final RequesterState req = new RequesterState();
    final CompleterState comp;
    final ResponderState resp;
    /** The QP's round-trip measurement, which congestion control hears the samples of. */
    final RttProbe rtt = new RttProbe();
    /** The QP's share of congestion control. */
    final CongestionControl.Flow flow;
    /** While a capture is on: the last change of the QP's rate, not yet told in a packet's comment (else null). */
    String rateNote;

    /** The task's coalescing flag: a run is already queued (set from any thread, cleared by the run). */
    final AtomicBoolean scheduled = new AtomicBoolean();
    final Runnable task;
    final Runnable retransmitCheck;
    final Runnable rnrResume;

    QpEngine(QueuePair qp, DataPath dataPath, CongestionControl cc) {
        this.qp = qp;
        this.handle = new QpHandle(qp, dataPath, this);
        this.comp = new CompleterState(qp.qpn());
        this.resp = new ResponderState();
        this.task = () -> {
            scheduled.set(false);
            dataPath.runTask(this);
        };
        this.flow = cc.attach(qp.qpn(), () -> dataPath.schedule(this));
        this.retransmitCheck = () -> dataPath.retransmitTimerFired(this);
        this.rnrResume = () -> dataPath.rnrTimerFired(this);
    }

    /** True while some sent packet still waits for its acknowledgement. */
    boolean outstanding() {
        return req.psn != comp.compPsn;
    }

    /**
     * Tells congestion control how many of the QP's packets are unacknowledged now (RC only: nothing
     * acknowledges UC or UD). A QP that went back still has what it sent before in flight, up to its
     * highest PSN sent: those packets are in the network or the peer's queue until acknowledged or
     * lost, and sending them again takes no more room. A QP in ERR has nothing in flight.
     */
    void recountInFlight() {
        boolean counts = qp.type() == QpType.RC && (qp.state() == QpState.RTS || qp.state() == QpState.SQD);
        flow.inFlight(counts ? Psn.distance(comp.compPsn, req.sentHighWater) : 0);
    }

    /** The send queue's oldest WQE is done: the completer has a completion to write. */
    boolean completionDue() {
        var w = qp.sendQueue().peek();
        return w != null && w.state == io.jrxe.rnic.queue.WqeState.DONE;
    }
}
