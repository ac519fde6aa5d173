package io.jrxe.rnic.engine;

import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.wire.port.PeerAddress;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The engines' state for one QP, owned by the NIC thread, in three holders as rxe keeps
 * qp->req, qp->comp and qp->resp, and the QP's one task: the engines never call each other,
 * they mark work in these holders and {@link DataPath#schedule schedule} the task, which runs
 * the completer, then the requester, then the responder's pending responses.
 */
final class QpEngine {
    final QueuePair qp;
    /** The connected peer (RC, UC) and the QP's own address, from its address vector at RTR. */
    PeerAddress peer;
    PeerAddress local;
    int srcPort;

    final RequesterState req = new RequesterState();
    final CompleterState comp;
    final ResponderState resp;

    /** The task's coalescing flag: a run is already queued (set from any thread, cleared by the run). */
    final AtomicBoolean scheduled = new AtomicBoolean();
    final Runnable task;
    final Runnable retransmitCheck;
    final Runnable rnrResume;

    QpEngine(QueuePair qp, int maxResources, DataPath dataPath) {
        this.qp = qp;
        this.comp = new CompleterState(qp.qpn());
        this.resp = new ResponderState(maxResources);
        this.task = () -> {
            scheduled.set(false);
            dataPath.runTask(this);
        };
        this.retransmitCheck = () -> dataPath.retransmitTimerFired(this);
        this.rnrResume = () -> dataPath.rnrTimerFired(this);
    }

    void resetSend(int sqPsn) {
        req.reset(sqPsn);
        comp.reset(sqPsn, qp.retryCnt(), qp.rnrRetry());
    }

    void resetReceive(int rqPsn) {
        resp.reset(rqPsn);
    }

    /** True while some sent packet still waits for its acknowledgement. */
    boolean outstanding() {
        return req.psn != comp.compPsn;
    }
}
