package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.cm.CmId;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What rping makes for one connection, as rping_setup_qp and rping_setup_buffers make it: a PD, a completion
 * channel and a CQ of 32 entries, an RC QP on the identifier (16 sends, 2 receives), and four buffers: the
 * receive and send buffers of one descriptor each, the RDMA buffer (READ into on the server, WRITTEN into on the
 * client) and, on the client, the start buffer the server READs.
 */
final class RpingResources implements AutoCloseable {
    private static final int SQ_DEPTH = 16;
    private static final int RDMA_ACCESS = Access.LOCAL_WRITE | Access.REMOTE_READ | Access.REMOTE_WRITE;

    private final Arena arena = Arena.ofShared();
    private final CmId id;
    final Pd pd;
    final CompChannel channel;
    final Cq cq;
    final Qp qp;
    final MemorySegment recvBuf;
    final MemorySegment sendBuf;
    final MemorySegment rdmaBuf;
    final MemorySegment startBuf;
    private final Mr recvMr;
    private final Mr sendMr;
    final Mr rdmaMr;
    final Mr startMr;
    private final RecvWr recv = new RecvWr(1);
    private final SendWr send = new SendWr(1);
    private final SendWr rdma = new SendWr(1);

    /** Makes everything on {@code id}'s device; what was made before a failure is released. */
    RpingResources(CmId id, int size, boolean client, RpingSettings s) throws VerbsException {
        this.id = id;
        Context ctx = id.context();
        boolean done = false;
        Pd madePd = null;
        CompChannel madeChannel = null;
        Cq madeCq = null;
        Qp madeQp = null;
        Mr[] mrs = new Mr[4];
        try {
            madePd = ctx.allocPd();
            s.debug("created pd %s", RpingSettings.pointer(madePd));
            madeChannel = ctx.createCompChannel();
            s.debug("created channel %s", RpingSettings.pointer(madeChannel));
            madeCq = ctx.createCq(SQ_DEPTH * 2, madeChannel);
            s.debug("created cq %s", RpingSettings.pointer(madeCq));
            madeCq.requestNotify(false);
            madeQp = id.createQp(madePd, new QpInitAttributes(QpType.RC, madeCq, madeCq, null,
                    new QpCapabilities(SQ_DEPTH, 2, 1, 1, 0), false));
            s.debug("created qp %s", RpingSettings.pointer(madeQp));
            s.debug("rping_setup_buffers called on cb %s", RpingSettings.pointer(this));
            recvBuf = arena.allocate(RdmaInfo.BYTES, 8);
            sendBuf = arena.allocate(RdmaInfo.BYTES, 8);
            rdmaBuf = arena.allocate(size, 64);
            startBuf = client ? arena.allocate(size, 64) : null;
            mrs[0] = madePd.regMr(recvBuf, Access.LOCAL_WRITE);
            mrs[1] = madePd.regMr(sendBuf, 0);
            mrs[2] = madePd.regMr(rdmaBuf, RDMA_ACCESS);
            mrs[3] = client ? madePd.regMr(startBuf, RDMA_ACCESS) : null;
            s.debug("allocated & registered buffers...");
            done = true;
        } finally {
            if (!done) {
                for (Mr mr : mrs) {
                    Quietly.close(mr);
                }
                Quietly.close(madeQp == null ? null : (AutoCloseable) id::destroyQp);
                Quietly.close(madeCq);
                Quietly.close(madeChannel);
                Quietly.close(madePd);
                arena.close();
            }
        }
        pd = madePd;
        channel = madeChannel;
        cq = madeCq;
        qp = madeQp;
        recvMr = mrs[0];
        sendMr = mrs[1];
        rdmaMr = mrs[2];
        startMr = mrs[3];
        recv.sgl.add(recvBuf.address(), RdmaInfo.BYTES, recvMr.lkey());
        send.opcode = WrOpcode.SEND;
        send.flags = SendWr.SIGNALED;
        send.sgl.add(sendBuf.address(), RdmaInfo.BYTES, sendMr.lkey());
        rdma.flags = SendWr.SIGNALED;
    }

    /** Posts the one receive rping keeps posted (again after each receive completes). */
    void postRecv() throws VerbsException {
        qp.postRecv(recv);
    }

    /** Sends {@code info} (rping_format_send, then the SEND). */
    void sendInfo(RdmaInfo info) throws VerbsException {
        info.write(sendBuf);
        qp.postSend(send);
    }

    /** Sends the send buffer as it is: the server's "go ahead", which repeats the last descriptor it was given. */
    void sendGoAhead() throws VerbsException {
        qp.postSend(send);
    }

    /** An RDMA READ (or WRITE) of {@code length} bytes between the RDMA buffer and the peer's buffer. */
    void postRdma(WrOpcode opcode, RdmaInfo remote, int length) throws VerbsException {
        rdma.opcode = opcode;
        rdma.sgl.clear();
        rdma.sgl.add(rdmaBuf.address(), length, rdmaMr.lkey());
        rdma.remoteAddr = remote.address();
        rdma.rkey = remote.rkey();
        qp.postSend(rdma);
    }

    /** The descriptor the last receive brought. */
    RdmaInfo received() {
        return RdmaInfo.read(recvBuf);
    }

    /** rping_free_buffers, then rping_free_qp: MRs, the QP, the CQ, the channel, the PD. */
    @Override
    public void close() {
        Quietly.close(recvMr);
        Quietly.close(sendMr);
        Quietly.close(rdmaMr);
        Quietly.close(startMr);
        Quietly.close(id::destroyQp);
        Quietly.close(cq);
        Quietly.close(channel);
        Quietly.close(pd);
        arena.close();
    }
}
