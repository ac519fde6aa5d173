package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.Access;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
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
 * One of ucmatose's connections (struct cmatest_node): its identifier, a PD, a send CQ and a receive CQ of
 * -C entries, an RC QP that signals every send, and one message buffer that every send and receive uses.
 */
final class CmatoseNode implements AutoCloseable {
    final int index;
    CmId id;
    boolean connected;
    private Pd pd;
    Cq sendCq;
    Cq recvCq;
    private Arena arena;
    private MemorySegment mem;
    private Mr mr;

    CmatoseNode(int index) {
        this.index = index;
    }

    /** init_node: PD, CQs, QP on the identifier, the message buffer (none when there are no messages). */
    void init(int count, int size) throws VerbsException {
        pd = id.context().allocPd();
        int cqe = count > 0 ? count : 1;
        sendCq = id.context().createCq(cqe, null);
        recvCq = id.context().createCq(cqe, null);
        id.createQp(pd, new QpInitAttributes(QpType.RC, sendCq, recvCq, null, new QpCapabilities(cqe, cqe, 1, 1, 0), true));
        if (count > 0 && size > 0) {
            arena = Arena.ofShared();
            mem = arena.allocate(size, 64);
            mr = pd.regMr(mem, Access.LOCAL_WRITE);
        }
    }

    /** post_recvs: {@code count} receives of one message each. */
    void postRecvs(int count, int size) throws VerbsException {
        if (count == 0) {
            return;
        }
        RecvWr recv = new RecvWr(1);
        recv.wrId = index;
        recv.sgl.add(mem.address(), size, mr.lkey());
        for (int i = 0; i < count; i++) {
            id.qp().postRecv(recv);
        }
    }

    /** post_sends: {@code count} SENDs of the message buffer, on a connected node. */
    void postSends(int count, int size) throws VerbsException {
        if (!connected || count == 0) {
            return;
        }
        SendWr send = new SendWr(1);
        send.wrId = index;
        send.opcode = WrOpcode.SEND;
        send.sgl.add(mem.address(), size, mr.lkey());
        for (int i = 0; i < count; i++) {
            id.qp().postSend(send);
        }
    }

    /** destroy_node: the QP, the CQs, the buffer, the PD, then the identifier. */
    @Override
    public void close() {
        if (id == null) {
            return;
        }
        quietly(id::destroyQp);
        quietly(sendCq);
        quietly(recvCq);
        quietly(mr);
        if (arena != null) {
            arena.close();
        }
        quietly(pd);
        quietly(id);
    }

    static void quietly(AutoCloseable c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            // tearing down at the end of the test: the device goes with the program
        }
    }
}
