package io.jrxe.tools.rcops;

import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.Resources;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * One side's RC QP, its CQ and a 64 KiB buffer registered for every remote access, on whichever device -d chose.
 * Where things lie in the buffer is the same on both sides ({@link #SEND_AT}, ...): the client's source of an
 * operation is at the offset where the server receives it. Closing releases the QP before the memory it used.
 */
final class RcOpsEndpoint implements AutoCloseable {
    static final int BUFFER_BYTES = 64 * 1024;
    /** Receive buffers (server) and SEND sources (client). */
    static final int SEND_AT = 0;
    static final int SEND_IMM_AT = 4096;
    static final int WRITE_IMM_RECV_AT = 8192;
    static final int MULTI_AT = 16384;
    static final int MULTI_RECV_BYTES = 8192;
    /** RDMA targets and sources. */
    static final int WRITE_AT = 32768;
    static final int WRITE_IMM_AT = 33792;
    static final int READ_AT = 40960;
    static final int ATOMIC_AT = 49152;
    /** Where the client's atomics put the old values. */
    static final int CAS_RESULT_AT = 49152;
    static final int FAA_RESULT_AT = 49160;
    /** ATOMIC_WRITE's source and target, and the range a FLUSH covers (--placement). */
    static final int ATOMIC_WRITE_AT = 53248;
    static final int FLUSHED_AT = 57344;

    private static final int REMOTE = Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;

    final Arena arena = Arena.ofShared();
    final MemorySegment buf;
    final Pd pd;
    final Cq cq;
    final Qp qp;
    final Mr mr;
    final CompletionWaiter waiter;
    private final WorkCompletion[] one = {new WorkCompletion()};

    /** @param placement whether the peer may FLUSH this side's memory (the QP and the MR allow it) */
    RcOpsEndpoint(LocalDevice dev, int timeoutMillis, boolean placement) {
        Pd p = null;
        Cq c = null;
        Qp q = null;
        Mr m = null;
        try {
            buf = arena.allocate(BUFFER_BYTES, 4096);
            p = dev.context().allocPd();
            c = dev.context().createCq(32, null);
            q = p.createQp(new QpInitAttributes(QpType.RC, c, c, null, new QpCapabilities(16, 16, 1, 1, 0), false));
            // Only with --placement: Linux 6.1's rxe refuses an MR with flush access.
            int remote = placement ? REMOTE | Access.FLUSH_GLOBAL : REMOTE;
            m = p.regMr(buf, Access.LOCAL_WRITE | remote);
            q.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(remote));
        } catch (VerbsException e) {
            // The memory goes last: a kernel device may write to registered memory until it is deregistered.
            Resources.closeQuietly(q, m, c, p);
            arena.close();
            throw new UserError("cannot set up the QP on " + dev.name() + ": " + e.getMessage(), e);
        }
        pd = p;
        cq = c;
        qp = q;
        mr = m;
        waiter = new CompletionWaiter(cq, null, timeoutMillis, "a completion");
    }

    /** RTR towards the peer, then RTS: the attributes of ibv_rc_pingpong, with room for one atomic or READ. */
    void connect(RcOpsDest peer, int myPsn, int sgidIndex, int ibPort, Mtu mtu) throws VerbsException {
        // A local ACK timeout of 0.5 s and 7 retries: a slow peer (a qemu guest under TCG) is not lost.
        QpConnect connect = QpConnect.to(new QpPeer(peer.qpn(), peer.psn(), peer.gid())).localPsn(myPsn).port(ibPort)
                .sgidIndex(sgidIndex).pathMtu(mtu).timeout(17);
        qp.modify(connect.rtr(QpType.RC));
        qp.modify(connect.rts(QpType.RC));
    }

    void postRecv(long wrId, int offset, int length) throws VerbsException {
        RecvWr r = new RecvWr(1);
        r.wrId = wrId;
        r.sgl.add(buf.address() + offset, length, mr.lkey());
        qp.postRecv(r);
    }

    /** A signaled work request of one SGE at {@code offset} in this buffer, towards {@code remoteOffset} in the peer's. */
    SendWr wr(long wrId, WrOpcode opcode, int offset, int length, RcOpsDest peer, int remoteOffset) {
        SendWr wr = new SendWr(1);
        wr.wrId = wrId;
        wr.opcode = opcode;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(buf.address() + offset, length, mr.lkey());
        wr.remoteAddr = peer.addr() + remoteOffset;
        wr.rkey = peer.rkey();
        return wr;
    }

    /** The next completion, waiting at most the timeout (then a UserError that says so). */
    WorkCompletion next() {
        waiter.await(one);
        return one[0];
    }

    /** One completion if the CQ holds one now, else null. */
    WorkCompletion poll() {
        return cq.poll(one) == 1 ? one[0] : null;
    }

    @Override
    public void close() {
        Resources.closeQuietly(qp, mr, cq, pd);
        arena.close();
    }
}
