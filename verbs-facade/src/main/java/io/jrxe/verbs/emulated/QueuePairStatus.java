package io.jrxe.verbs.emulated;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.engine.QpHandle;
import io.jrxe.rnic.engine.QpLiveState;

/** The MBean of one QP: each read takes a {@link QpLiveState} on the NIC thread, as a control verb does. */
final class QueuePairStatus implements QueuePairMXBean {
    private final NicResources rnic;
    private final String device;
    private final QpHandle handle;

    QueuePairStatus(NicResources rnic, String device, QpHandle handle) {
        this.rnic = rnic;
        this.device = device;
        this.handle = handle;
    }

    private QpLiveState now() {
        try {
            return rnic.executor().call(handle::liveState);
        } catch (RnicException e) {
            throw new IllegalStateException("device " + device + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String getDevice() {
        return device;
    }

    @Override
    public int getQpn() {
        return now().qpn();
    }

    @Override
    public String getType() {
        return now().type().name();
    }

    @Override
    public String getState() {
        return now().state().name();
    }

    @Override
    public int getDestQpn() {
        return now().destQpn();
    }

    @Override
    public int getSendPsn() {
        return now().sendPsn();
    }

    @Override
    public int getReceivePsn() {
        return now().receivePsn();
    }

    @Override
    public int getSendQueueOutstanding() {
        return now().sendQueueOutstanding();
    }

    @Override
    public int getReceiveQueueOutstanding() {
        return now().receiveQueueOutstanding();
    }

    @Override
    public boolean isSharedReceiveQueue() {
        return now().sharedReceiveQueue();
    }

    @Override
    public String getPeer() {
        String peer = now().peer();
        return peer == null ? "" : peer;
    }

    @Override
    public String getSummary() {
        QpLiveState s = now();
        return String.format("lqpn %d rqpn %d type %s state %s sq-psn 0x%06x rq-psn 0x%06x sq-wrs %d %s %d%s",
                s.qpn(), s.destQpn(), s.type(), s.state(), s.sendPsn(), s.receivePsn(), s.sendQueueOutstanding(),
                s.sharedReceiveQueue() ? "srq-wrs" : "rq-wrs", s.receiveQueueOutstanding(),
                s.peer() == null ? "" : " peer " + s.peer());
    }
}
