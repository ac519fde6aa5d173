package io.jrxe.it.interop;

import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.VerbsException;

/** What the smoke program does with queues: connect RC QPs, post one WR, wait for its completion. */
final class SmokeQueues {
    static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
            | Access.MW_BIND;
    private static final long COMPLETION_TIMEOUT_NANOS = 5_000_000_000L;

    private SmokeQueues() {
    }

    /** RESET -> INIT -> RTR -> RTS towards {@code peerQpn} at our own GID (rxe loops packets to itself back). */
    static void connect(Qp qp, int peerQpn, byte[] gid, int gidIndex, Mtu mtu) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        qp.modify(new QpAttributes().state(QpState.RTR).pathMtu(mtu).destQpn(peerQpn).rqPsn(0x100)
                .maxDestRdAtomic(1).minRnrTimer(12).av(AddressVector.to(gid, gidIndex)));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(0x100).timeout(14).retryCnt(7).rnrRetry(7).maxRdAtomic(1));
    }

    /** A signaled send WR of one SGE over {@code mr} at {@code offset}. */
    static SendWr send(WrOpcode op, long wrId, Mr mr, long offset, int length) {
        SendWr w = new SendWr(1);
        w.wrId = wrId;
        w.opcode = op;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(mr.memory().address() + offset, length, mr.lkey());
        return w;
    }

    static RecvWr recv(long wrId, Mr mr, long offset, int length) {
        RecvWr r = new RecvWr(1);
        r.wrId = wrId;
        r.sgl.add(mr.memory().address() + offset, length, mr.lkey());
        return r;
    }

    /** The next completion within five seconds, which must be a success with {@code wrId}. */
    static WorkCompletion complete(Cq cq, long wrId) {
        WorkCompletion[] wc = {new WorkCompletion()};
        long deadline = System.nanoTime() + COMPLETION_TIMEOUT_NANOS;
        while (cq.poll(wc) == 0) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("no completion for wr_id " + wrId + " within 5 s");
            }
            Thread.onSpinWait();
        }
        SmokeReport.expect(wc[0].status() == WcStatus.SUCCESS && wc[0].wrId() == wrId, "completion " + wc[0]);
        return wc[0];
    }
}
