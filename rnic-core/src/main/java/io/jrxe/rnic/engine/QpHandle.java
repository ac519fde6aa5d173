package io.jrxe.rnic.engine;

/**
 * What the verbs layer keeps of a QP's engines: its doorbell. Posting threads ring it without
 * any lookup; the first ring of a burst queues one run of the QP's task on the NIC thread.
 */
public final class QpHandle {
    private final DataPath dataPath;
    private final QpEngine engine;

    QpHandle(DataPath dataPath, QpEngine engine) {
        this.dataPath = dataPath;
        this.engine = engine;
    }

    /** post_send wrote WQEs: wake the requester. */
    public void ringDoorbell() {
        if (dataPath.tracing()) {
            dataPath.trace(TraceEvent.DOORBELL, engine.qp.qpn(), 0, -1, -1, engine.qp.sendQueue().produced());
        }
        dataPath.schedule(engine);
    }

    /** The POSTED trace event, on the posting thread (the one event that is not the NIC's own). */
    public void posted(int qpn, long wrId, int opcode, long length) {
        dataPath.trace(TraceEvent.POSTED, qpn, wrId, -1, opcode, length);
    }

    /**
     * The QP's state, PSNs and queue depths as one snapshot. Call it on the NIC thread (as a command
     * through the device's {@code NicExecutor}): the PSNs are the engines' own, which only that thread may read.
     */
    public QpLiveState liveState() {
        var qp = engine.qp;
        var rq = qp.srq() != null ? qp.srq().queue() : qp.recvQueue();
        return new QpLiveState(qp.qpn(), qp.type(), qp.state(), qp.destQpn(), engine.req.psn, engine.resp.epsn,
                qp.sendQueue().depth(), rq.depth(), qp.srq() != null, engine.peer == null ? null : engine.peer.toString());
    }

    /** post_recv wrote WQEs (a QP in ERR flushes them at once). */
    public void receivesPosted() {
        dataPath.receivePosted(engine);
    }
}
