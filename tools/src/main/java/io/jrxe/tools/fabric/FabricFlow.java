package io.jrxe.tools.fabric;

import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.sim.fabric.HostPair;

/**
 * One flow: an RC QP on the sender's NIC connected to one on the receiver's, the sender writing the receiver's
 * buffer with RDMA WRITEs, keeping a number of them outstanding, until its bytes are written or the run ends.
 */
final class FabricFlow {
    /** The local ACK timeout code: 4.096 µs × 2^8, about 1 ms, long against the fabric's round trip. */
    private static final int ACK_TIMEOUT = 8;
    private static final int RETRIES = 7;

    final int index;
    final HostPair pair;
    final FabricHost sender;
    final FabricHost receiver;
    private final Qp qp;
    private final FabricScenario scenario;
    private final SendWr wr = new SendWr(1);
    private long postedBytes;
    private long completedBytes;
    private int outstanding;
    private long lastCompletionNanos = -1;
    private WcStatus failure;

    FabricFlow(int index, HostPair pair, FabricHost sender, FabricHost receiver, FabricScenario s)
            throws VerbsException {
        this.index = index;
        this.pair = pair;
        this.sender = sender;
        this.receiver = receiver;
        this.scenario = s;
        // Room for twice the WRITEs kept outstanding: a slot is free again only once the NIC has retired its WQE.
        QpCapabilities caps = new QpCapabilities(2 * s.depth(), 1, 1, 1, 0);
        qp = sender.pd.createQp(new QpInitAttributes(QpType.RC, sender.cq, sender.cq, null, caps, false));
        Qp peer = receiver.pd.createQp(new QpInitAttributes(QpType.RC, receiver.cq, receiver.cq, null, caps, false));
        connect(qp, sender, peer, receiver);
        connect(peer, receiver, qp, sender);
    }

    private static void connect(Qp me, FabricHost mine, Qp peer, FabricHost theirs) throws VerbsException {
        QpConnect.to(new QpPeer(peer.qpNum(), 0, theirs.ctx.queryGid(1, 1).gid())).localPsn(0)
                .pathMtu(mine.ctx.queryPort(1).activeMtu()).timeout(ACK_TIMEOUT).retryCount(RETRIES).rnrRetry(7)
                .apply(me);
    }

    int qpNum() {
        return qp.qpNum();
    }

    /** Posts WRITEs until the flow has its outstanding number, its bytes, or {@code sending} is false. */
    void post(boolean sending) throws VerbsException {
        while (sending && failure == null && outstanding < scenario.depth()
                && (scenario.bytesPerFlow() == 0 || postedBytes < scenario.bytesPerFlow())) {
            long left = scenario.bytesPerFlow() == 0 ? Long.MAX_VALUE : scenario.bytesPerFlow() - postedBytes;
            int length = (int) Math.min(scenario.messageBytes(), left);
            wr.clear();
            wr.wrId = postedBytes;
            wr.opcode = WrOpcode.RDMA_WRITE;
            wr.flags = SendWr.SIGNALED;
            wr.sgl.add(FabricHost.IOVA, length, sender.mr.lkey());
            wr.remoteAddr = FabricHost.IOVA;
            wr.rkey = receiver.mr.rkey();
            qp.postSend(wr);
            postedBytes += length;
            outstanding++;
        }
    }

    void completed(WorkCompletion wc, long nowNanos) {
        outstanding--;
        if (wc.status() != WcStatus.SUCCESS) {
            failure = failure == null ? wc.status() : failure;
            return;
        }
        // The WRITE's wr_id is the offset of its first byte in the flow; its length follows from it.
        long left = scenario.bytesPerFlow() == 0 ? Long.MAX_VALUE : scenario.bytesPerFlow() - wc.wrId();
        completedBytes += Math.min(scenario.messageBytes(), left);
        lastCompletionNanos = nowNanos;
    }

    long completedBytes() {
        return completedBytes;
    }

    /** When the last byte was acknowledged, once all of them were; -1 before (or when sending for a duration). */
    long completionNanos() {
        return scenario.bytesPerFlow() > 0 && completedBytes >= scenario.bytesPerFlow() ? lastCompletionNanos : -1;
    }

    boolean finished() {
        return failure != null || completionNanos() >= 0;
    }

    /** The status of the first WRITE that failed, or null. */
    WcStatus failure() {
        return failure;
    }
}
