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
        dataPath.schedule(engine);
    }

    /** The POSTED trace event, on the posting thread (the one event that is not the NIC's own). */
    public void posted(int qpn, long wrId, int opcode, long length) {
        dataPath.trace(TraceEvent.POSTED, qpn, wrId, -1, opcode, length);
    }

    /** post_recv wrote WQEs (a QP in ERR flushes them at once). */
    public void receivesPosted() {
        dataPath.receivePosted(engine);
    }
}
