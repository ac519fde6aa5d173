package io.jrxe.rnic.engine;

import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.PostException;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;

/**
 * A QP as the {@link io.jrxe.rnic.Nic} hands it out: the QP's state and attributes, and its
 * doorbell. Posting threads check and copy work requests into the QP's rings and ring the doorbell
 * without any lookup; the first ring of a burst queues one run of the QP's task on the NIC thread.
 * A QP of a device without a network has no engines: it cannot post.
 */
public final class QpHandle {
    private final QueuePair qp;
    private final DataPath dataPath;
    private final QpEngine engine;

    QpHandle(QueuePair qp, DataPath dataPath, QpEngine engine) {
        this.qp = qp;
        this.dataPath = dataPath;
        this.engine = engine;
    }

    /** The handle of a QP of a device with no network: its state machine works, it moves no data. */
    public static QpHandle withoutEngines(QueuePair qp) {
        return new QpHandle(qp, null, null);
    }

    public QueuePair qp() {
        return qp;
    }

    /** Whether the QP has engines (its device has a network). */
    public boolean movesData() {
        return engine != null;
    }

    /** post_send: checks and copies the chain into the send queue, then rings the doorbell once. */
    public void postSend(SendWr first) throws PostException {
        requireEngines();
        int mtu = qp.type() == QpType.UD ? dataPath.resources.port().activeMtu().bytes() : qp.pathMtu().bytes();
        WorkPoster.postSend(this, qp, first, mtu);
    }

    /** post_recv: checks and copies the chain into the receive queue. */
    public void postRecv(RecvWr first) throws PostException {
        requireEngines();
        WorkPoster.postRecv(this, qp, first);
    }

    private void requireEngines() throws PostException {
        if (engine == null) {
            throw new PostException(Errno.ENOSYS, 0, "QP 0x" + Integer.toHexString(qp.qpn())
                    + " is on a device with no network port: it cannot move data");
        }
    }

    /** post_send wrote WQEs: wake the requester. */
    void ringDoorbell() {
        if (dataPath.tracing()) {
            dataPath.trace(TraceEvent.DOORBELL, qp.qpn(), 0, -1, -1, qp.sendQueue().produced());
        }
        dataPath.schedule(engine);
    }

    /** The POSTED trace event, on the posting thread (the one event that is not the NIC's own). */
    void posted(int qpn, long wrId, int opcode, long length) {
        dataPath.trace(TraceEvent.POSTED, qpn, wrId, -1, opcode, length);
    }

    /** post_recv wrote WQEs (a QP in ERR flushes them at once). */
    void receivesPosted() {
        dataPath.receivePosted(engine);
    }

    /**
     * The QP's state, PSNs and queue depths as one snapshot. Call it on the NIC thread (as a command
     * through the device's {@code NicExecutor}): the PSNs are the engines' own, which only that thread may read.
     */
    public QpLiveState liveState() {
        var rq = qp.srq() != null ? qp.srq().queue() : qp.recvQueue();
        int sendPsn = engine == null ? qp.sqPsn() : engine.req.psn;
        int expectedPsn = engine == null ? qp.rqPsn() : engine.resp.epsn;
        String peer = engine == null || engine.peer == null ? null : engine.peer.toString();
        return new QpLiveState(qp.qpn(), qp.type(), qp.state(), qp.destQpn(), sendPsn, expectedPsn,
                qp.sendQueue().depth(), rq.depth(), qp.srq() != null, peer);
    }

    @Override
    public String toString() {
        return qp.toString();
    }
}
