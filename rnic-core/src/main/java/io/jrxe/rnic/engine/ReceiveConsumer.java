package io.jrxe.rnic.engine;

import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.rnic.event.AsyncEventQueue;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;

import java.nio.ByteBuffer;

/**
 * The responder's use of receive WQEs, for every transport: taking one from the QP's receive
 * queue or its SRQ when a message starts, scattering payload into it, and completing it.
 */
final class ReceiveConsumer {
    private final Dma dma;
    private final CompletionWriter completions;
    private final Counters counters;
    private final AsyncEventQueue events;

    ReceiveConsumer(Dma dma, CompletionWriter completions, Counters counters, AsyncEventQueue events) {
        this.dma = dma;
        this.completions = completions;
        this.counters = counters;
        this.events = events;
    }

    /** Takes the next receive WQE from the QP's receive queue or its SRQ; false when there is none. */
    boolean take(QpEngine e) {
        QueuePair qp = e.qp;
        ResponderState resp = e.resp;
        SharedReceiveQueue srq = qp.srq();
        ReceiveWqe wqe;
        if (srq != null) {
            ReceiveWqe head = srq.queue().peek();
            if (head == null) {
                return false;
            }
            wqe = resp.srqCopy(srq.maxSge());
            wqe.wrId(head.wrId());
            wqe.sgl().copyFrom(head.sgl());
            srq.queue().remove();
            if (srq.limitReached()) {
                events.post(new AsyncEvent(AsyncEventType.SRQ_LIMIT_REACHED, srq.handle(),
                        "fewer WRs are posted than the armed limit"));
            }
            resp.recvFromSrq = true;
        } else {
            wqe = qp.recvQueue().peek();
            if (wqe == null) {
                return false;
            }
            resp.recvFromSrq = false;
        }
        resp.recvWqe = wqe;
        resp.recvOffset = 0;
        return true;
    }

    /** A WRITE with immediate consumes a receive at its last packet, unless its message already holds one. */
    boolean takeForImmediate(QpEngine e) {
        return e.resp.recvWqe != null || take(e);
    }

    /** True when the receive WQE has room for this much more of its message. */
    boolean fits(QpEngine e, int payloadLength) {
        return e.resp.recvOffset + payloadLength <= e.resp.recvWqe.sgl().totalLength();
    }

    /** Scatters payload into the receive WQE at its current offset (the caller checked {@link #fits}). */
    AccessError scatter(QpEngine e, ByteBuffer buf, int payloadOffset, int payloadLength) {
        ResponderState resp = e.resp;
        if (payloadLength == 0) {
            return AccessError.NONE;
        }
        AccessError err = dma.scatter(e.qp.pd(), resp.recvWqe.sgl(), resp.recvOffset, buf, payloadOffset, payloadLength);
        if (err == AccessError.NONE) {
            resp.recvOffset += payloadLength;
        }
        return err;
    }

    /** Completes the receive successfully (counted in rdma_recvs, as rxe does). */
    void complete(QpEngine e, WcOpcode opcode, long bytes, int imm, int flags, int srcQp, boolean solicited) {
        QueuePair qp = e.qp;
        // The receive queue's slot is freed before the completion is published: an application that reposts a
        // receive as soon as it sees the completion (as ibv_rc_pingpong does) must find the slot free, as on rxe.
        long wrId = release(e);
        completions.complete(qp.recvCq(), wrId, WcStatus.SUCCESS, opcode, 0, bytes, imm, qp.qpn(), srcQp, flags, solicited);
        counters.increment(Counter.RDMA_RECVS);
    }

    /** Completes the receive with an error status. */
    void fail(QpEngine e, WcStatus status, int srcQp) {
        QueuePair qp = e.qp;
        long wrId = release(e);
        completions.complete(qp.recvCq(), wrId, status, WcOpcode.RECV, 0, 0, 0, qp.qpn(), srcQp, 0, false);
    }

    /** A message that lost a packet (UC): a receive it had started goes back to the queue, unused. */
    void abandon(QpEngine e) {
        e.resp.inMessage = MessageInProgress.NONE;
        e.resp.recvWqe = null;
        e.resp.recvOffset = 0;
    }

    /**
     * The QP is in the error state: every receive of its queue completes with WR_FLUSH_ERR, in order, and
     * one it had taken from its SRQ for a message in progress too; the message is forgotten.
     */
    void flush(QpEngine e) {
        QueuePair qp = e.qp;
        WorkQueue<ReceiveWqe> rq = qp.recvQueue();
        if (rq != null) {
            ReceiveWqe r;
            while ((r = rq.peek()) != null) {
                long wrId = r.wrId();
                rq.remove();
                completions.complete(qp.recvCq(), wrId, WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, qp.qpn(), 0, 0, false);
            }
        }
        ResponderState resp = e.resp;
        if (resp.recvFromSrq && resp.recvWqe != null) {
            completions.complete(qp.recvCq(), resp.recvWqe.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, qp.qpn(), 0, 0,
                    false);
        }
        resp.recvWqe = null;
        resp.inMessage = MessageInProgress.NONE;
    }

    private long release(QpEngine e) {
        ResponderState resp = e.resp;
        long wrId = resp.recvWqe.wrId();
        if (!resp.recvFromSrq) {
            e.qp.recvQueue().remove();
        }
        resp.recvWqe = null;
        resp.recvOffset = 0;
        return wrId;
    }
}
