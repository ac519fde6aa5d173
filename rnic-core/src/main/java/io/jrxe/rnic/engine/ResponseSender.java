package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryKey;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;

/**
 * The responder's one writer of responses. A one-packet response (ACK, NAK, atomic result, a
 * FLUSH's or ATOMIC WRITE's answer) goes out at once unless responses wait in the QP's
 * {@link ResponseQueue}, when it joins them; a READ's response always waits there and is sent by
 * the QP's task, a budget of packets per turn, inside what congestion control allows.
 */
final class ResponseSender {
    private final Transmitter out;
    private final Dma dma;
    private final Counters counters;
    private final QpControl control;
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();

    ResponseSender(Transmitter out, Dma dma, Counters counters, QpControl control) {
        this.out = out;
        this.dma = dma;
        this.counters = counters;
        this.control = control;
    }

    /** An ACK (or NAK) carrying the MSN as it stands. */
    void acknowledge(QpEngine e, int psn, int syndrome) {
        respond(e, ResponseKind.ACKNOWLEDGE, psn, syndrome, e.resp.msn, 0);
    }

    /**
     * A NAK whose capture comment names the responder's precise reason (when a capture is on and
     * the NAK goes out at once; one that waits behind a READ's response goes without it).
     */
    void nak(QpEngine e, int psn, int syndrome, String reason) {
        sendOwedAck(e);
        if (reason != null && e.resp.responses.isEmpty() && out.capturing()) {
            out.annotateNext(reason);
        }
        acknowledge(e, psn, syndrome);
    }

    /** Sends the QP's owed ACK, if any (at the end of a receive burst, or before another response). */
    void sendOwedAck(QpEngine e) {
        ResponderState resp = e.resp;
        if (resp.ackOwed) {
            resp.ackOwed = false;
            respond(e, ResponseKind.ACKNOWLEDGE, resp.owedAckPsn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID),
                    resp.owedAckMsn, 0);
        }
    }

    /** A one-packet response: now, or behind the responses that wait. */
    void respond(QpEngine e, ResponseKind kind, int psn, int syndrome, int msn, long atomicOriginal) {
        sendOwedAck(e); // responses keep their order: an ACK owed for earlier requests goes first
        ResponseQueue queue = e.resp.responses;
        if (queue.isEmpty()) {
            write(e, kind.opcode, psn, syndrome, msn, atomicOriginal);
            return;
        }
        PendingResponse tail = queue.tail();
        if (kind == ResponseKind.ACKNOWLEDGE && tail.kind == ResponseKind.ACKNOWLEDGE && isAck(syndrome) && isAck(tail.syndrome)) {
            tail.psn = psn; // a later ACK acknowledges everything an earlier one did
            tail.msn = msn;
            return;
        }
        if (queue.isFull()) {
            counters.increment(Counter.RESPONSE_QUEUE_FULL); // only a peer beyond its max_rd_atomic fills it; its retry is answered again
            return;
        }
        PendingResponse p = queue.add();
        p.kind = kind;
        p.psn = psn;
        p.syndrome = syndrome;
        p.msn = msn;
        p.atomicOriginal = atomicOriginal;
    }

    /**
     * Queues a READ's response from fromPsn (a new READ from its first PSN, a duplicate from the
     * PSN it asks for) and schedules the QP's task to send it. False when the queue is full.
     */
    boolean queueRead(QpEngine e, ResponderResource r, int fromPsn) {
        sendOwedAck(e);
        ResponseQueue queue = e.resp.responses;
        if (queue.isFull()) {
            return false;
        }
        long offset = (long) Psn.distance(r.firstPsn, fromPsn) * Requester.mtu(e.qp);
        PendingResponse p = queue.add();
        p.kind = ResponseKind.READ_RESPONSE;
        p.psn = fromPsn;
        p.startPsn = fromPsn;
        p.lastPsn = r.lastPsn;
        p.msn = e.resp.msn;
        p.entry = r.entry;
        p.rkey = r.rkey;
        p.va = r.va + offset;
        p.remaining = r.length - offset;
        control.schedule(e);
        return true;
    }

    /** The QP's task: sends waiting responses, at most budget packets; returns how many went. */
    int sendPending(QpEngine e, int budget) {
        ResponseQueue queue = e.resp.responses;
        int sent = 0;
        while (sent < budget) {
            PendingResponse p = queue.head();
            if (p == null) {
                break;
            }
            if (p.kind == ResponseKind.READ_RESPONSE) {
                if (!e.flow.mayRespond()) {
                    break; // congestion control wakes the QP when it may send again
                }
                AccessError refused = p.remaining > 0 ? dma.recheck(p.entry, p.rkey, p.va,
                        Math.min(Requester.mtu(e.qp), p.remaining)) : AccessError.NONE;
                if (refused != AccessError.NONE) {
                    refuseRead(e, p, refused);
                    break;
                }
                if (sendReadPacket(e, p)) {
                    queue.removeHead();
                }
            } else {
                write(e, p.kind.opcode, p.psn, p.syndrome, p.msn, p.atomicOriginal);
                queue.removeHead();
            }
            sent++;
        }
        return sent;
    }

    /**
     * The memory a READ's response reads went away between two of its packets (its key invalidated or its MR
     * deregistered, its memory freed, an implicit MR's segment unmapped): as rxe's read_reply when its copy fails, a
     * NAK with a remote access error in place of the packet, and the QP to the error state; the responses that waited
     * behind it are dropped with it.
     */
    private void refuseRead(QpEngine e, PendingResponse p, AccessError refused) {
        int psn = p.psn;
        int msn = p.msn;
        e.resp.responses.clear();
        if (out.capturing()) {
            out.annotateNext("NAK " + NakCode.REMOTE_ACCESS_ERROR.description() + ": R_Key " + MemoryKey.format(p.rkey)
                    + " during a READ's response: " + refused.description());
        }
        write(e, Opcode.RC_ACKNOWLEDGE, psn, AethSyndrome.nak(NakCode.REMOTE_ACCESS_ERROR), msn, 0);
        control.error(e, AsyncEventType.QP_ACCESS_ERR, "responder: " + NakCode.REMOTE_ACCESS_ERROR.description()
                + " at PSN " + Psn.format(psn) + " during a READ's response: " + refused.description());
    }

    /** One packet of a READ's response; true when it was the last. */
    private boolean sendReadPacket(QpEngine e, PendingResponse p) {
        int payload = (int) Math.min(Requester.mtu(e.qp), p.remaining);
        boolean first = p.psn == p.startPsn;
        boolean last = p.psn == p.lastPsn;
        Opcode op = first && last ? Opcode.RC_RDMA_READ_RESPONSE_ONLY
                : first ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
                : last ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
        int pad = (4 - (payload & 3)) & 3;
        ByteBuffer tx = out.tx;
        out.bth().set(op.code(), false, pad, BthFlyweight.DEFAULT_PKEY, e.qp.destQpn(), false, p.psn);
        if (op.has(ExtensionHeader.AETH)) {
            aeth.wrap(tx, op.offsetOf(ExtensionHeader.AETH)).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), p.msn);
        }
        int at = op.headerLength();
        if (payload > 0) {
            dma.copy(p.entry, p.va, tx, at, payload, false);
            at += payload;
        }
        for (int i = 0; i < pad; i++) {
            tx.put(at++, (byte) 0);
        }
        out.send(e.peer, e.srcPort, at);
        p.va += payload;
        p.remaining -= payload;
        p.psn = Psn.next(p.psn);
        return last;
    }

    private void write(QpEngine e, Opcode op, int psn, int syndrome, int msn, long atomicOriginal) {
        ByteBuffer tx = out.tx;
        out.bth().set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, e.qp.destQpn(), false, psn);
        aeth.wrap(tx, op.offsetOf(ExtensionHeader.AETH)).set(syndrome, msn);
        if (op.has(ExtensionHeader.ATOMIC_ACK_ETH)) {
            atomicAck.wrap(tx, op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH)).originalData(atomicOriginal);
        }
        out.send(e.peer, e.srcPort, op.headerLength());
    }

    private static boolean isAck(int syndrome) {
        return AethSyndrome.type(syndrome) == AethSyndrome.TYPE_ACK;
    }
}
