package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Port;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.PostException;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.rnic.queue.WrOpcodeInfo;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WrOpcode;

/**
 * post_send and post_recv, on the application's thread: each work request of a chain is checked
 * (QP state, opcode for the QP type, SGE count, inline size, atomic buffer, message size) and
 * copied into the next free ring slot; the ones before a bad one are posted, as with
 * ibv_post_send's bad_wr. Then one doorbell. No allocation, no lock shared with the NIC thread.
 */
public final class WorkPoster {
    private WorkPoster() {
    }

    static void postSend(QpHandle handle, QueuePair qp, SendWr first, int mtu) throws PostException {
        QpState state = qp.state();
        if (state == QpState.RESET || state == QpState.INIT || state == QpState.RTR) {
            throw new PostException(Errno.EINVAL, 0, String.format(
                    "QP 0x%06x is in %s: post_send needs RTS (or SQD, SQE, ERR)", qp.qpn(), state));
        }
        WorkQueue<SendWqe> sq = qp.sendQueue();
        int index = 0;
        try {
            synchronized (sq.producerLock()) {
                try {
                    for (SendWr wr = first; wr != null; wr = wr.next(), index++) {
                        String bad = checkSend(qp, wr, mtu);
                        if (bad != null) {
                            throw new PostException(Errno.EINVAL, index, bad);
                        }
                        SendWqe slot = sq.claim();
                        if (slot == null) {
                            throw new PostException(Errno.ENOMEM, index, String.format(
                                    "the send queue of QP 0x%06x is full (%d WRs outstanding)", qp.qpn(), sq.capacity()));
                        }
                        slot.copyFrom(wr);
                        // On the posting thread: the one trace event that is not the NIC's own.
                        handle.posted(qp.qpn(), wr.wrId, wr.opcode.ordinal(), slot.length());
                    }
                } finally {
                    sq.publish();
                }
            }
        } finally {
            // The work requests before a bad one are posted: ring for them too, or they would wait
            // in the ring until some later post_send.
            if (index > 0) {
                handle.ringDoorbell();
            }
        }
    }

    private static String checkSend(QueuePair qp, SendWr wr, int mtu) {
        WrOpcode op = wr.opcode;
        if (op == null) {
            return "no opcode";
        }
        WrOpcodeInfo info = WrOpcodeInfo.of(op);
        if (!info.allowedOn(qp.type())) {
            return op + " is not allowed on a " + qp.type() + " QP";
        }
        if (wr.sgl.count() > qp.caps().maxSendSge()) {
            return wr.sgl.count() + " SGEs exceed the QP's max_send_sge " + qp.caps().maxSendSge();
        }
        boolean inline = (wr.flags & SendWr.INLINE) != 0;
        long length;
        if (inline) {
            if (!info.inlineAllowed()) {
                return "INLINE is not allowed with " + op;
            }
            if (wr.inlineLength > qp.caps().maxInlineData()) {
                return "inline data of " + wr.inlineLength + " bytes exceeds the QP's max_inline_data " + qp.caps().maxInlineData();
            }
            if (wr.inlineData == null || wr.inlineData.length < wr.inlineLength || wr.inlineLength < 0) {
                return "inline length " + wr.inlineLength + " but the inline array holds "
                        + (wr.inlineData == null ? "nothing" : wr.inlineData.length + " bytes");
            }
            length = wr.inlineLength;
        } else {
            length = wr.sgl.totalLength();
        }
        if (length > Port.MAX_MESSAGE_SIZE) {
            return "a message of " + length + " bytes exceeds the port's max_msg_sz " + Port.MAX_MESSAGE_SIZE;
        }
        if (info.eightByteBuffer() && length != 8) {
            return op + " needs an 8-byte local buffer, not " + length + " bytes";
        }
        if (qp.type() == QpType.UD && length > mtu) {
            return "a UD message of " + length + " bytes exceeds the path MTU " + mtu;
        }
        return null;
    }

    static void postRecv(QpHandle handle, QueuePair qp, RecvWr first) throws PostException {
        if (qp.srq() != null) {
            throw new PostException(Errno.EINVAL, 0, String.format(
                    "QP 0x%06x takes its receives from %s: post them there", qp.qpn(), qp.srq()));
        }
        if (qp.state() == QpState.RESET) {
            throw new PostException(Errno.EINVAL, 0, String.format(
                    "QP 0x%06x is in RESET: post_recv needs INIT or later", qp.qpn()));
        }
        try {
            post(qp.recvQueue(), first, qp.caps().maxRecvSge(), qp);
        } finally {
            handle.receivesPosted(); // also for the receives posted before a bad one
        }
    }

    public static void postSrqRecv(SharedReceiveQueue srq, RecvWr first) throws PostException {
        post(srq.queue(), first, srq.maxSge(), srq);
    }

    /** @param owner the QP or SRQ, named in an error message (only then turned into text) */
    private static void post(WorkQueue<ReceiveWqe> rq, RecvWr first, int maxSge, Object owner) throws PostException {
        int index = 0;
        synchronized (rq.producerLock()) {
            try {
                for (RecvWr wr = first; wr != null; wr = wr.next(), index++) {
                    if (wr.sgl.count() > maxSge) {
                        throw new PostException(Errno.EINVAL, index,
                                wr.sgl.count() + " SGEs exceed the max_recv_sge " + maxSge + " of " + owner);
                    }
                    ReceiveWqe slot = rq.claim();
                    if (slot == null) {
                        throw new PostException(Errno.ENOMEM, index,
                                "the receive queue of " + owner + " is full (" + rq.capacity() + " WRs)");
                    }
                    slot.wrId(wr.wrId);
                    slot.sgl().copyFrom(wr.sgl);
                }
            } finally {
                rq.publish();
            }
        }
    }
}
