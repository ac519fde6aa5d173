package io.jrxe.tools.rdmacm;

import io.jrxe.verbs.Cq;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WrOpcode;

/**
 * One of ucmatose's connections: a send CQ and a receive CQ of -C entries and an RC QP that signals every
 * send, besides what every node has.
 */
final class CmatoseNode extends CmTestNode {
    Cq sendCq;
    Cq recvCq;

    CmatoseNode(int index) {
        super(index);
    }

    /** init_node: PD, CQs, QP on the identifier, the message buffer (none when there are no messages). */
    void init(int count, int size) throws VerbsException {
        pd = id.context().allocPd();
        int cqe = count > 0 ? count : 1;
        sendCq = id.context().createCq(cqe, null);
        recvCq = id.context().createCq(cqe, null);
        id.createQp(pd, new QpInitAttributes(QpType.RC, sendCq, recvCq, null, new QpCapabilities(cqe, cqe, 1, 1, 0), true));
        if (count > 0 && size > 0) {
            allocate(size);
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

    @Override
    void closeQueues() {
        Quietly.close(sendCq);
        Quietly.close(recvCq);
    }
}
