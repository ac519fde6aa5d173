package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Access;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.MessagePosition;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;

/**
 * The responder: executes incoming requests. RC and UC share every check but the PSN's: RC
 * acknowledges a duplicate again (or replays its READ response or atomic result from the
 * responder resources) and answers a gap with one PSN sequence NAK; UC has no retries, so a
 * lost packet loses its message. Then the opcode sequence and lengths, keys, PD, rights and
 * bounds; receive WQEs are consumed (none: RNR NAK with min_rnr_timer on RC, a drop on UC);
 * atomics (8-byte aligned) run once; SEND_WITH_INV invalidates; RC acknowledges with the MSN.
 * A rule broken is a NAK and the error state on RC (IBTA 9.9.3), a silent drop on UC.
 * Responses leave through {@link ResponseSender}; UD datagrams go to {@link DatagramReceiver}.
 */
final class Responder {
    private final DataPath dp;
    private final MemoryTables memory;
    private final ResponseSender responses;
    private final ReceiveConsumer receives;
    private final DatagramReceiver datagrams;
    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();

    Responder(DataPath dp) {
        this.dp = dp;
        this.memory = dp.rnic.memory();
        this.responses = new ResponseSender(dp);
        this.receives = new ReceiveConsumer(dp);
        this.datagrams = new DatagramReceiver(dp, receives);
    }

    void request(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, PacketInfo info) {
        bth.wrap(buf, offset);
        if (e.qp.type() == QpType.UD) {
            datagrams.receive(e, bth, op, buf, offset, payloadOffset, payloadLength, info);
            return;
        }
        int psn = bth.psn();
        boolean inSequence = e.qp.type() == QpType.RC ? inSequenceRc(e, op, buf, offset, psn) : inSequenceUc(e, op, psn);
        if (!inSequence) {
            return;
        }
        NakCode broken = sequenceAndLength(e, op, payloadLength);
        if (broken != null) {
            reject(e, psn, op, broken, null);
            return;
        }
        switch (op.operation()) {
            case SEND -> send(e, op, buf, offset, payloadOffset, payloadLength, psn);
            case RDMA_WRITE -> write(e, op, buf, offset, payloadOffset, payloadLength, psn);
            case RDMA_READ_REQUEST -> readRequest(e, op, buf, offset, psn);
            case COMPARE_SWAP, FETCH_ADD -> atomic(e, op, buf, offset, psn);
            case FLUSH -> flush(e, op, buf, offset, psn);
            case ATOMIC_WRITE -> atomicWrite(e, op, buf, offset, payloadOffset, payloadLength, psn);
            default -> reject(e, psn, op, NakCode.INVALID_REQUEST, null);
        }
    }

    /** The end of a receive burst (or another response): the QP's owed ACK goes out. */
    void sendOwedAck(QpEngine e) {
        responses.sendOwedAck(e);
    }

    /** The QP's task: sends the responses that wait (READ data first of all), at most budget packets. */
    int sendPending(QpEngine e, int budget) {
        return responses.sendPending(e, budget);
    }

    /** RC: the expected PSN is executed; a duplicate is answered again; a gap gets one sequence NAK. */
    private boolean inSequenceRc(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        ResponderState resp = e.resp;
        int diff = Psn.diff(psn, resp.epsn);
        if (diff < 0) {
            duplicate(e, op, psn);
            return false;
        }
        if (diff > 0) {
            dp.rnic.counters().increment(Counter.OUT_OF_SEQ_REQUEST);
            if (!resp.sequenceNakSent) {
                resp.sequenceNakSent = true;
                responses.acknowledge(e, resp.epsn, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
            }
            return false;
        }
        resp.sequenceNakSent = false;
        return true;
    }

    /** UC: a lost packet loses its whole message (IBTA 9.8.3): drop until the next FIRST or ONLY. */
    private boolean inSequenceUc(QpEngine e, Opcode op, int psn) {
        ResponderState resp = e.resp;
        MessagePosition pos = op.position();
        if (psn != resp.epsn || pos.starts() == (resp.inMessage != MessageInProgress.NONE)) {
            receives.abandon(e);
            if (!pos.starts()) {
                resp.epsn = Psn.next(psn);
                dp.drop(DropReason.PSN_OUT_OF_WINDOW, e.qp.qpn(), psn, op.code());
                return false;
            }
        }
        resp.epsn = psn;
        return true;
    }

    /** The opcode sequence (no MIDDLE/LAST without a FIRST, no new message inside one), the payload lengths and the QP's rights. */
    private static NakCode sequenceAndLength(QpEngine e, Opcode op, int payloadLength) {
        MessagePosition pos = op.position();
        MessageInProgress inMessage = e.resp.inMessage;
        if (pos.starts() == (inMessage != MessageInProgress.NONE)) {
            return NakCode.INVALID_REQUEST;
        }
        if (inMessage != MessageInProgress.NONE && !inMessage.continuedBy(op.operation())) {
            return NakCode.INVALID_REQUEST;
        }
        int mtu = Requester.mtu(e.qp);
        if ((pos == MessagePosition.FIRST || pos == MessagePosition.MIDDLE) && payloadLength != mtu || payloadLength > mtu) {
            return NakCode.INVALID_REQUEST;
        }
        int needed = switch (op.operation()) {
            case RDMA_WRITE, ATOMIC_WRITE -> Access.REMOTE_WRITE;
            case RDMA_READ_REQUEST -> Access.REMOTE_READ;
            case COMPARE_SWAP, FETCH_ADD -> Access.REMOTE_ATOMIC;
            default -> 0;
        };
        if ((e.qp.accessFlags() & needed) != needed) {
            return NakCode.INVALID_REQUEST;
        }
        // A FLUSH needs the QP to allow one of the two placement types (as rxe's check_op_valid).
        if (op.operation() == Operation.FLUSH && (e.qp.accessFlags() & (Access.FLUSH_GLOBAL | Access.FLUSH_PERSISTENT)) == 0) {
            return NakCode.INVALID_REQUEST;
        }
        return null;
    }

    private void send(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, int psn) {
        if (op.position().starts() && !receives.take(e)) {
            noReceive(e, op, psn);
            return;
        }
        if (!receives.fits(e, payloadLength)) {
            reject(e, psn, op, NakCode.INVALID_REQUEST, WcStatus.LOC_LEN_ERR);
            return;
        }
        if (receives.scatter(e, buf, payloadOffset, payloadLength) != AccessError.NONE) {
            reject(e, psn, op, NakCode.REMOTE_OPERATIONAL_ERROR, WcStatus.LOC_PROT_ERR);
            return;
        }
        advance(e, op, psn);
        if (op.position().ends()) {
            int flags = 0;
            int imm = 0;
            if (op.hasImmediate()) {
                flags |= WorkCompletion.WITH_IMM;
                imm = immDt.wrap(buf, offset + op.offsetOf(ExtensionHeader.IMMDT)).immediate();
            } else if (op.hasInvalidate()) {
                imm = ieth.wrap(buf, offset + op.offsetOf(ExtensionHeader.IETH)).rkey();
                AccessError err = memory.invalidate(imm, e.qp.pd());
                if (err != AccessError.NONE) {
                    // IBTA class J (rxe's RESPST_ERR_INVALIDATE_RKEY): the SEND was received, so it is
                    // acknowledged, not NAKed; the receive completes with REM_INV_REQ_ERR and this QP
                    // goes to the error state. A NAK here failed the requester, which rxe does not.
                    receives.fail(e, WcStatus.REM_INV_REQ_ERR, 0);
                    acknowledgeIfAsked(e, psn);
                    responses.sendOwedAck(e);
                    dp.error(e, "responder: SEND with invalidate of key " + String.format("0x%08x", imm) + ": "
                            + err.description());
                    return;
                }
                flags |= WorkCompletion.WITH_INV;
            }
            receives.complete(e, WcOpcode.RECV, e.resp.recvOffset, imm, flags, 0, bth.solicitedEvent());
        }
        acknowledgeIfAsked(e, psn);
    }

    private void write(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, int psn) {
        ResponderState resp = e.resp;
        if (op.position().starts()) {
            reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
            resp.writeVa = reth.virtualAddress();
            resp.writeRkey = reth.rkey();
            resp.writeLength = reth.dmaLength();
            resp.writeRemaining = resp.writeLength;
            AccessError err = resp.writeLength > 0 ? memory.check(resp.writeRkey, e.qp.pd(), resp.writeVa, resp.writeLength,
                    Access.REMOTE_WRITE, true) : AccessError.NONE;
            if (err != AccessError.NONE) {
                reject(e, psn, op, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(resp.writeRkey, err));
                return;
            }
        }
        if (payloadLength > resp.writeRemaining || op.position().ends() && payloadLength != resp.writeRemaining) {
            reject(e, psn, op, NakCode.INVALID_REQUEST, null);
            return;
        }
        if (op.hasImmediate() && !receives.takeForImmediate(e)) {
            noReceive(e, op, psn);
            return;
        }
        if (payloadLength > 0) {
            long va = resp.writeVa + (resp.writeLength - resp.writeRemaining);
            MptEntry entry = memory.lookup(resp.writeRkey);
            AccessError err = memory.check(entry, resp.writeRkey, e.qp.pd(), va, payloadLength, Access.REMOTE_WRITE, true);
            if (err != AccessError.NONE) {
                reject(e, psn, op, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(resp.writeRkey, err));
                return;
            }
            dp.dma.copy(entry, va, buf, payloadOffset, payloadLength, true);
        }
        resp.writeRemaining -= payloadLength;
        advance(e, op, psn);
        if (op.hasImmediate()) {
            int imm = immDt.wrap(buf, offset + op.offsetOf(ExtensionHeader.IMMDT)).immediate();
            receives.complete(e, WcOpcode.RECV_RDMA_WITH_IMM, resp.writeLength, imm, WorkCompletion.WITH_IMM, 0,
                    bth.solicitedEvent());
        }
        acknowledgeIfAsked(e, psn);
    }

    private void readRequest(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
        long va = reth.virtualAddress();
        int rkey = reth.rkey();
        long length = reth.dmaLength();
        MptEntry entry = null;
        if (length > 0) {
            entry = memory.lookup(rkey);
            AccessError err = memory.check(entry, rkey, e.qp.pd(), va, length, Access.REMOTE_READ, true);
            if (err != AccessError.NONE) {
                reject(e, psn, op, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(rkey, err));
                return;
            }
        }
        if (!roomForResponse(e)) {
            dp.drop(DropReason.NO_RESOURCES, e.qp.qpn(), psn, op.code()); // not executed: the requester sends it again
            return;
        }
        int mtu = Requester.mtu(e.qp);
        int packets = (int) Math.max(1, (length + mtu - 1) / mtu);
        ResponderResource r = nextResource(e);
        r.kind = ResourceKind.READ;
        r.firstPsn = psn;
        r.lastPsn = Psn.add(psn, packets - 1);
        r.va = va;
        r.rkey = rkey;
        r.length = length;
        r.entry = entry;
        e.resp.epsn = Psn.add(r.lastPsn, 1);
        e.resp.msn = (e.resp.msn + 1) & Psn.MASK;
        responses.queueRead(e, r, psn);
    }

    private void atomic(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        atomicEth.wrap(buf, offset + op.offsetOf(ExtensionHeader.ATOMIC_ETH));
        long va = atomicEth.virtualAddress();
        if ((va & 7) != 0) {
            reject(e, psn, op, NakCode.INVALID_REQUEST, null, misaligned(va));
            return;
        }
        int rkey = atomicEth.rkey();
        MptEntry entry = memory.lookup(rkey);
        AccessError err = memory.check(entry, rkey, e.qp.pd(), va, 8, Access.REMOTE_ATOMIC, true);
        if (err != AccessError.NONE) {
            reject(e, psn, op, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(rkey, err));
            return;
        }
        if (!roomForResponse(e)) {
            dp.drop(DropReason.NO_RESOURCES, e.qp.qpn(), psn, op.code()); // not executed: the requester sends it again
            return;
        }
        long original = dp.dma.readLong(entry, va);
        long result = op == Opcode.RC_COMPARE_SWAP
                ? (original == atomicEth.compare() ? atomicEth.swapAdd() : original)
                : original + atomicEth.swapAdd();
        dp.dma.writeLong(entry, va, result);
        ResponderResource r = nextResource(e);
        r.kind = ResourceKind.ATOMIC;
        r.firstPsn = psn;
        r.lastPsn = psn;
        r.atomicOriginal = original;
        e.resp.epsn = Psn.next(psn);
        e.resp.msn = (e.resp.msn + 1) & Psn.MASK;
        responses.respond(e, ResponseKind.ATOMIC_ACKNOWLEDGE, psn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), e.resp.msn,
                original);
    }

    private void flush(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
        AccessError err = reth.dmaLength() > 0 ? memory.check(reth.rkey(), e.qp.pd(), reth.virtualAddress(), reth.dmaLength(),
                Access.FLUSH_GLOBAL, true) : AccessError.NONE;
        if (err != AccessError.NONE) {
            reject(e, psn, op, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(reth.rkey(), err));
            return;
        }
        // Host memory is already globally visible once written: the flush has nothing to wait for.
        advance(e, op, psn);
        answerPlacement(e, psn);
    }

    private void atomicWrite(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength,
            int psn) {
        if (payloadLength != Long.BYTES) {
            // An ATOMIC WRITE carries exactly the 8 bytes it places; with fewer, the copy below would read
            // past the payload (found by ResponderFuzzTest: an engine exception, counted as a jrxe bug).
            reject(e, psn, op, NakCode.INVALID_REQUEST, null);
            return;
        }
        reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
        long va = reth.virtualAddress();
        if ((va & 7) != 0) {
            reject(e, psn, op, NakCode.INVALID_REQUEST, null, misaligned(va));
            return;
        }
        MptEntry entry = memory.lookup(reth.rkey());
        AccessError err = memory.check(entry, reth.rkey(), e.qp.pd(), va, 8, Access.REMOTE_WRITE, true);
        if (err != AccessError.NONE) {
            reject(e, psn, op, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(reth.rkey(), err));
            return;
        }
        dp.dma.copy(entry, va, buf, payloadOffset, 8, true);
        advance(e, op, psn);
        answerPlacement(e, psn);
    }

    /**
     * Whether a READ's or atomic's response can be queued: checked before the request is executed,
     * after the owed ACK (which may itself have to wait) took its place.
     */
    private boolean roomForResponse(QpEngine e) {
        responses.sendOwedAck(e);
        return !e.resp.responses.isFull();
    }

    private void answerPlacement(QpEngine e, int psn) {
        responses.respond(e, ResponseKind.PLACEMENT_ACKNOWLEDGE, psn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID),
                e.resp.msn, 0);
    }

    /** A request at a PSN already executed: acknowledge it again, or replay its READ response or atomic result. */
    private void duplicate(QpEngine e, Opcode op, int psn) {
        dp.rnic.counters().increment(Counter.DUPLICATE_REQUEST);
        Operation operation = op.operation();
        if (operation == Operation.RDMA_READ_REQUEST || operation == Operation.COMPARE_SWAP || operation == Operation.FETCH_ADD) {
            for (ResponderResource r : e.resp.resources) {
                if (r.covers(psn)) {
                    if (r.kind == ResourceKind.ATOMIC) {
                        responses.respond(e, ResponseKind.ATOMIC_ACKNOWLEDGE, psn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID),
                                e.resp.msn, r.atomicOriginal);
                    } else {
                        responses.queueRead(e, r, psn);
                    }
                    return;
                }
            }
            return; // too old to replay: the requester's retries will give up
        }
        if (operation == Operation.FLUSH || operation == Operation.ATOMIC_WRITE) {
            answerPlacement(e, psn); // answered again, not executed again
            return;
        }
        responses.acknowledge(e, Psn.add(e.resp.epsn, -1), AethSyndrome.ack(AethSyndrome.CREDITS_INVALID));
    }

    /** No receive WQE for a message that needs one: an RNR NAK carrying min_rnr_timer (the PSN stays expected); on UC a drop. */
    private void noReceive(QpEngine e, Opcode op, int psn) {
        if (e.qp.type() == QpType.UC) {
            receives.abandon(e);
            e.resp.epsn = Psn.next(psn);
            dp.drop(DropReason.NO_RESOURCES, e.qp.qpn(), psn, op.code());
            return;
        }
        dp.rnic.counters().increment(Counter.SEND_RNR_ERR);
        responses.acknowledge(e, psn, AethSyndrome.rnrNak(e.qp.minRnrTimer()));
    }

    /**
     * A request that breaks a rule. RC: a class C error (IBTA 9.9.3): NAK it and move the QP to the
     * error state. UC, which has no NAK: drop it and the rest of its message. A receive it was
     * filling completes with receiveStatus (on RC, by default, REM_INV_REQ_ERR).
     */
    private void reject(QpEngine e, int psn, Opcode op, NakCode code, WcStatus receiveStatus) {
        reject(e, psn, op, code, receiveStatus, null);
    }

    /** As {@link #reject(QpEngine, int, Opcode, NakCode, WcStatus)}, with the precise reason for the NAK's comment and the event. */
    private void reject(QpEngine e, int psn, Opcode op, NakCode code, WcStatus receiveStatus, String detail) {
        QueuePair qp = e.qp;
        if (qp.type() == QpType.UC) {
            if (receiveStatus != null && e.resp.recvWqe != null) {
                receives.fail(e, receiveStatus, 0);
            }
            receives.abandon(e);
            e.resp.epsn = Psn.next(psn);
            dp.drop(code == NakCode.REMOTE_ACCESS_ERROR ? DropReason.NO_RESOURCES : DropReason.MALFORMED, qp.qpn(), psn, op.code());
            return;
        }
        responses.nak(e, psn, AethSyndrome.nak(code), detail == null ? null : "NAK " + code.description() + ": " + detail);
        if (e.resp.recvWqe != null) {
            receives.fail(e, receiveStatus != null ? receiveStatus : WcStatus.REM_INV_REQ_ERR, 0);
        }
        // The affiliated events verbs define: an access violation, an invalid request, else fatal.
        AsyncEventType event = code == NakCode.REMOTE_ACCESS_ERROR ? AsyncEventType.QP_ACCESS_ERR
                : code == NakCode.INVALID_REQUEST ? AsyncEventType.QP_REQ_ERR : AsyncEventType.QP_FATAL;
        dp.error(e, event, "responder: " + code.description() + " at PSN " + Psn.format(psn) + (detail == null ? "" : ": " + detail));
    }

    /** The precise reason of a remote access error (built on the error path only). */
    private static String keyRefused(int rkey, AccessError err) {
        return String.format("R_Key 0x%08x: %s", rkey, err.description());
    }

    private static String misaligned(long va) {
        return String.format("atomic target 0x%x is not 8-byte aligned", va);
    }

    /** The request was executed: the next PSN is expected, and a message that ended counts in the MSN. */
    private static void advance(QpEngine e, Opcode op, int psn) {
        ResponderState resp = e.resp;
        resp.epsn = Psn.next(psn);
        if (op.position().ends()) {
            resp.inMessage = MessageInProgress.NONE;
            resp.msn = (resp.msn + 1) & Psn.MASK;
        } else if (op.position().starts()) {
            resp.inMessage = MessageInProgress.openedBy(op.operation());
        }
    }

    /**
     * A request asked for an ACK: it is owed until the end of the receive burst, so that one ACK
     * answers every request of the burst up to its PSN (IBTA 9.7.5.1.2 lets a responder coalesce
     * acknowledgements; rxe sends one per request). Anything else this QP sends first sends the owed
     * ACK, so responses keep their order.
     */
    private void acknowledgeIfAsked(QpEngine e, int psn) {
        if (bth.ackRequest() && e.qp.type() == QpType.RC) {
            ResponderState resp = e.resp;
            resp.ackOwed = true;
            resp.owedAckPsn = psn;
            resp.owedAckMsn = resp.msn;
            dp.ackOwed(e);
        }
    }

    private static ResponderResource nextResource(QpEngine e) {
        ResponderState resp = e.resp;
        int n = Math.max(1, Math.min(resp.resources.length, e.qp.maxDestRdAtomic()));
        ResponderResource r = resp.resources[resp.nextResource % n];
        resp.nextResource = (resp.nextResource + 1) % n;
        r.clear();
        return r;
    }
}
