package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.Access;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryKey;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.rnic.memory.OnDemandPaging;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.MessagePosition;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;
import java.util.Arrays;

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
    private final MemoryTables memory;
    private final Counters counters;
    private final Drops drops;
    private final Dma dma;
    private final QpControl control;
    private final ResponseSender responses;
    private final ReceiveConsumer receives;
    private final DatagramReceiver datagrams;
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    // QPs that owe an ACK at the end of the receive burst, each listed once.
    private QpEngine[] acksOwed = new QpEngine[16];
    private int acksOwedCount;

    Responder(MemoryTables memory, Counters counters, Drops drops, Dma dma, QpControl control, ResponseSender responses,
              ReceiveConsumer receives, DatagramReceiver datagrams) {
        this.memory = memory;
        this.counters = counters;
        this.drops = drops;
        this.dma = dma;
        this.control = control;
        this.responses = responses;
        this.receives = receives;
        this.datagrams = datagrams;
    }

    /** The QP entered RTR (or RESET): rqPsn is expected, nothing is owed or in progress. */
    void reset(QpEngine e, int rqPsn) {
        e.resp.reset(rqPsn, e.qp.maxDestRdAtomic());
    }

    /** The QP is in the error state: a receive it was filling from an SRQ is flushed, the message forgotten. */
    void flush(QpEngine e) {
        receives.flush(e);
        e.resp.writeEntry = null;
    }

    /** The QP is destroyed: it answers nothing more. */
    void detach(QpEngine e) {
        e.resp.ackOwed = false;
        e.resp.responses.clear();
    }

    void request(QpEngine e, RxPacket p) {
        if (e.qp.type() == QpType.UD) {
            datagrams.receive(e, p);
            return;
        }
        Opcode op = p.opcode;
        int psn = p.psn;
        boolean inSequence = e.qp.type() == QpType.RC ? inSequenceRc(e, op, psn) : inSequenceUc(e, p);
        if (!inSequence) {
            return;
        }
        String broken = sequenceAndLength(e, op, p.payloadLength);
        if (broken != null) {
            reject(e, p, NakCode.INVALID_REQUEST, null, broken);
            return;
        }
        switch (op.operation()) {
            case SEND -> send(e, p);
            case RDMA_WRITE -> write(e, p);
            case RDMA_READ_REQUEST -> readRequest(e, p);
            case COMPARE_SWAP, FETCH_ADD -> atomic(e, p);
            case FLUSH -> flush(e, p);
            case ATOMIC_WRITE -> atomicWrite(e, p);
            default -> reject(e, p, NakCode.INVALID_REQUEST, null, op.displayName() + " is not a request a responder executes");
        }
    }

    /** The end of a receive burst: every ACK owed goes out, one per QP. */
    void burstEnd() {
        for (int i = 0; i < acksOwedCount; i++) {
            QpEngine e = acksOwed[i];
            acksOwed[i] = null;
            e.resp.ackListed = false;
            try {
                responses.sendOwedAck(e);
            } catch (RuntimeException ex) {
                control.engineError("acknowledging for QP " + e.qp.qpn(), ex);
            }
        }
        acksOwedCount = 0;
    }

    /** The QP's task: sends the responses that wait (READ data first of all), at most budget packets. */
    int sendPending(QpEngine e, int budget) {
        return responses.sendPending(e, budget);
    }

    /** RC: the expected PSN is executed; a duplicate is answered again; a gap gets one sequence NAK. */
    private boolean inSequenceRc(QpEngine e, Opcode op, int psn) {
        ResponderState resp = e.resp;
        int diff = Psn.diff(psn, resp.epsn);
        if (diff < 0) {
            duplicate(e, op, psn);
            return false;
        }
        if (diff > 0) {
            counters.increment(Counter.OUT_OF_SEQ_REQUEST);
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
    private boolean inSequenceUc(QpEngine e, RxPacket p) {
        ResponderState resp = e.resp;
        MessagePosition pos = p.opcode.position();
        if (p.psn != resp.epsn || pos.starts() == (resp.inMessage != MessageInProgress.NONE)) {
            receives.abandon(e);
            if (!pos.starts()) {
                resp.epsn = Psn.next(p.psn);
                drops.drop(DropReason.PSN_OUT_OF_WINDOW, e.qp.qpn(), p);
                return false;
            }
        }
        resp.epsn = p.psn;
        return true;
    }

    /**
     * The opcode sequence (no MIDDLE/LAST without a FIRST, no new message inside one), the payload lengths and the
     * QP's rights: null when the request keeps them, else the rule it broke, in words (built on the error path only).
     */
    private static String sequenceAndLength(QpEngine e, Opcode op, int payloadLength) {
        MessagePosition pos = op.position();
        MessageInProgress inMessage = e.resp.inMessage;
        if (pos.starts() && inMessage != MessageInProgress.NONE) {
            return op.displayName() + " starts a message inside a " + inMessage + " that has not ended";
        }
        if (!pos.starts() && inMessage == MessageInProgress.NONE) {
            return op.displayName() + " continues a message that never started";
        }
        if (inMessage != MessageInProgress.NONE && !inMessage.continuedBy(op.operation())) {
            return op.displayName() + " does not continue the " + inMessage + " in progress";
        }
        int mtu = Requester.mtu(e.qp);
        if ((pos == MessagePosition.FIRST || pos == MessagePosition.MIDDLE) && payloadLength != mtu) {
            return "a FIRST or MIDDLE packet carries the path MTU's " + mtu + " bytes, this one " + payloadLength;
        }
        if (payloadLength > mtu) {
            return "a payload of " + payloadLength + " bytes exceeds the path MTU's " + mtu;
        }
        int needed = switch (op.operation()) {
            case RDMA_WRITE, ATOMIC_WRITE -> Access.REMOTE_WRITE;
            case RDMA_READ_REQUEST -> Access.REMOTE_READ;
            case COMPARE_SWAP, FETCH_ADD -> Access.REMOTE_ATOMIC;
            default -> 0;
        };
        if ((e.qp.accessFlags() & needed) != needed) {
            return "the QP does not allow it: its access flags lack " + Access.names(needed);
        }
        // A FLUSH needs the QP to allow one of the two placement types (as rxe's check_op_valid).
        if (op.operation() == Operation.FLUSH && (e.qp.accessFlags() & (Access.FLUSH_GLOBAL | Access.FLUSH_PERSISTENT)) == 0) {
            return "the QP does not allow a FLUSH: its access flags lack FLUSH_GLOBAL and FLUSH_PERSISTENT";
        }
        return null;
    }

    private void send(QpEngine e, RxPacket p) {
        Opcode op = p.opcode;
        if (op.position().starts() && !receives.take(e)) {
            noReceive(e, p);
            return;
        }
        if (!receives.fits(e, p.payloadLength)) {
            reject(e, p, NakCode.INVALID_REQUEST, WcStatus.LOC_LEN_ERR, "the message is longer than the receive's "
                    + e.resp.recvWqe.sgl().totalLength() + " bytes");
            return;
        }
        AccessError scattered = receives.scatter(e, p.buffer, p.payloadOffset, p.payloadLength);
        if (scattered != AccessError.NONE) {
            reject(e, p, NakCode.REMOTE_OPERATIONAL_ERROR, WcStatus.LOC_PROT_ERR, "the receive's memory: "
                    + scattered.description());
            return;
        }
        advance(e, op, p.psn);
        if (op.position().ends()) {
            int flags = 0;
            int imm = 0;
            if (op.hasImmediate()) {
                flags |= WorkCompletion.WITH_IMM;
                imm = immDt.wrap(p.buffer, p.at(ExtensionHeader.IMMDT)).immediate();
            } else if (op.hasInvalidate()) {
                imm = ieth.wrap(p.buffer, p.at(ExtensionHeader.IETH)).rkey();
                AccessError err = memory.invalidate(imm, e.qp.pd());
                if (err != AccessError.NONE) {
                    // IBTA class J (rxe's RESPST_ERR_INVALIDATE_RKEY): the SEND was received, so it is
                    // acknowledged, not NAKed; the receive completes with REM_INV_REQ_ERR and this QP
                    // goes to the error state. A NAK here would fail the requester, which rxe does not.
                    receives.fail(e, WcStatus.REM_INV_REQ_ERR, 0);
                    acknowledgeIfAsked(e, p);
                    responses.sendOwedAck(e);
                    control.error(e, AsyncEventType.QP_FATAL, "responder: SEND with invalidate of key "
                            + String.format("0x%08x", imm) + ": " + err.description());
                    return;
                }
                flags |= WorkCompletion.WITH_INV;
            }
            receives.complete(e, WcOpcode.RECV, e.resp.recvOffset, imm, flags, 0, p.solicited);
        }
        acknowledgeIfAsked(e, p);
    }

    private void write(QpEngine e, RxPacket p) {
        ResponderState resp = e.resp;
        Opcode op = p.opcode;
        if (op.position().starts()) {
            reth.wrap(p.buffer, p.at(ExtensionHeader.RETH));
            resp.writeVa = reth.virtualAddress();
            resp.writeRkey = reth.rkey();
            resp.writeLength = reth.dmaLength();
            resp.writeRemaining = resp.writeLength;
            resp.writeEntry = null;
            if (resp.writeLength > 0) {
                // The whole message is checked once, here; its later packets only ask whether the key still stands.
                MptEntry entry = memory.lookup(resp.writeRkey);
                AccessError err = memory.check(entry, resp.writeRkey, e.qp.pd(), resp.writeVa, resp.writeLength,
                        Access.REMOTE_WRITE, true);
                if (err != AccessError.NONE) {
                    reject(e, p, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(resp.writeRkey, err));
                    return;
                }
                if (naksPageFault(e, p, entry, resp.writeVa, resp.writeLength)) {
                    return;
                }
                resp.writeEntry = entry;
            }
        }
        int payloadLength = p.payloadLength;
        if (payloadLength > resp.writeRemaining || op.position().ends() && payloadLength != resp.writeRemaining) {
            reject(e, p, NakCode.INVALID_REQUEST, null, "the WRITE's packets carry more or fewer bytes than its RETH's "
                    + resp.writeLength);
            return;
        }
        if (op.hasImmediate() && !receives.takeForImmediate(e)) {
            noReceive(e, p);
            return;
        }
        if (payloadLength > 0) {
            long va = resp.writeVa + (resp.writeLength - resp.writeRemaining);
            AccessError err = op.position().starts() ? AccessError.NONE
                    : memory.recheck(resp.writeEntry, resp.writeRkey, va, payloadLength);
            if (err != AccessError.NONE) {
                reject(e, p, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(resp.writeRkey, err));
                return;
            }
            dma.copy(resp.writeEntry, va, p.buffer, p.payloadOffset, payloadLength, true);
        }
        resp.writeRemaining -= payloadLength;
        advance(e, op, p.psn);
        if (op.hasImmediate()) {
            int imm = immDt.wrap(p.buffer, p.at(ExtensionHeader.IMMDT)).immediate();
            receives.complete(e, WcOpcode.RECV_RDMA_WITH_IMM, resp.writeLength, imm, WorkCompletion.WITH_IMM, 0, p.solicited);
        }
        if (op.position().ends()) {
            resp.writeEntry = null;
        }
        acknowledgeIfAsked(e, p);
    }

    private void readRequest(QpEngine e, RxPacket p) {
        reth.wrap(p.buffer, p.at(ExtensionHeader.RETH));
        long va = reth.virtualAddress();
        int rkey = reth.rkey();
        long length = reth.dmaLength();
        MptEntry entry = null;
        if (length > 0) {
            entry = memory.lookup(rkey);
            AccessError err = memory.check(entry, rkey, e.qp.pd(), va, length, Access.REMOTE_READ, true);
            if (err != AccessError.NONE) {
                reject(e, p, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(rkey, err));
                return;
            }
            if (naksPageFault(e, p, entry, va, length)) {
                return;
            }
        }
        if (!roomForResponse(e)) {
            drops.drop(DropReason.NO_RESOURCES, e.qp.qpn(), p); // not executed: the requester sends it again
            return;
        }
        int mtu = Requester.mtu(e.qp);
        int packets = (int) Math.max(1, (length + mtu - 1) / mtu);
        ResponderResource r = nextResource(e);
        r.kind = ResourceKind.READ;
        r.firstPsn = p.psn;
        r.lastPsn = Psn.add(p.psn, packets - 1);
        r.va = va;
        r.rkey = rkey;
        r.length = length;
        r.entry = entry;
        e.resp.epsn = Psn.add(r.lastPsn, 1);
        e.resp.msn = (e.resp.msn + 1) & Psn.MASK;
        if (!responses.queueRead(e, r, p.psn)) {
            counters.increment(Counter.RESPONSE_QUEUE_FULL); // roomForResponse made room: never, unless that changes
        }
    }

    private void atomic(QpEngine e, RxPacket p) {
        atomicEth.wrap(p.buffer, p.at(ExtensionHeader.ATOMIC_ETH));
        long va = atomicEth.virtualAddress();
        if ((va & 7) != 0) {
            reject(e, p, NakCode.INVALID_REQUEST, null, misaligned(va));
            return;
        }
        int rkey = atomicEth.rkey();
        MptEntry entry = memory.lookup(rkey);
        AccessError err = memory.check(entry, rkey, e.qp.pd(), va, 8, Access.REMOTE_ATOMIC, true);
        if (err != AccessError.NONE) {
            reject(e, p, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(rkey, err));
            return;
        }
        if (naksPageFault(e, p, entry, va, 8)) {
            return;
        }
        if (!roomForResponse(e)) {
            drops.drop(DropReason.NO_RESOURCES, e.qp.qpn(), p); // not executed: the requester sends it again
            return;
        }
        long original = dma.readLong(entry, va);
        long result = p.opcode == Opcode.RC_COMPARE_SWAP
                ? (original == atomicEth.compare() ? atomicEth.swapAdd() : original)
                : original + atomicEth.swapAdd();
        dma.writeLong(entry, va, result);
        ResponderResource r = nextResource(e);
        r.kind = ResourceKind.ATOMIC;
        r.firstPsn = p.psn;
        r.lastPsn = p.psn;
        r.atomicOriginal = original;
        e.resp.epsn = Psn.next(p.psn);
        e.resp.msn = (e.resp.msn + 1) & Psn.MASK;
        responses.respond(e, ResponseKind.ATOMIC_ACKNOWLEDGE, p.psn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID),
                e.resp.msn, original);
    }

    private void flush(QpEngine e, RxPacket p) {
        reth.wrap(p.buffer, p.at(ExtensionHeader.RETH));
        AccessError err = reth.dmaLength() > 0 ? memory.check(reth.rkey(), e.qp.pd(), reth.virtualAddress(), reth.dmaLength(),
                Access.FLUSH_GLOBAL, true) : AccessError.NONE;
        if (err != AccessError.NONE) {
            reject(e, p, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(reth.rkey(), err));
            return;
        }
        // Host memory is already globally visible once written: the flush has nothing to wait for.
        advance(e, p.opcode, p.psn);
        answerPlacement(e, p.psn);
    }

    private void atomicWrite(QpEngine e, RxPacket p) {
        if (p.payloadLength != Long.BYTES) {
            // An ATOMIC WRITE carries exactly the 8 bytes it places; with fewer, the copy below would read past the
            // payload.
            reject(e, p, NakCode.INVALID_REQUEST, null, "an ATOMIC WRITE carries 8 bytes, this one " + p.payloadLength);
            return;
        }
        reth.wrap(p.buffer, p.at(ExtensionHeader.RETH));
        long va = reth.virtualAddress();
        if ((va & 7) != 0) {
            reject(e, p, NakCode.INVALID_REQUEST, null, misaligned(va));
            return;
        }
        MptEntry entry = memory.lookup(reth.rkey());
        AccessError err = memory.check(entry, reth.rkey(), e.qp.pd(), va, 8, Access.REMOTE_WRITE, true);
        if (err != AccessError.NONE) {
            reject(e, p, NakCode.REMOTE_ACCESS_ERROR, null, keyRefused(reth.rkey(), err));
            return;
        }
        if (naksPageFault(e, p, entry, va, 8)) {
            return;
        }
        dma.copy(entry, va, p.buffer, p.payloadOffset, 8, true);
        advance(e, p.opcode, p.psn);
        answerPlacement(e, p.psn);
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
        counters.increment(Counter.DUPLICATE_REQUEST);
        Operation operation = op.operation();
        if (operation == Operation.RDMA_READ_REQUEST || operation == Operation.COMPARE_SWAP || operation == Operation.FETCH_ADD) {
            for (ResponderResource r : e.resp.resources) {
                if (r.covers(psn)) {
                    if (r.kind == ResourceKind.ATOMIC) {
                        responses.respond(e, ResponseKind.ATOMIC_ACKNOWLEDGE, psn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID),
                                e.resp.msn, r.atomicOriginal);
                    } else if (!responses.queueRead(e, r, psn)) {
                        counters.increment(Counter.RESPONSE_QUEUE_FULL); // the requester's retry asks again
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

    /**
     * A device whose policy for a peer's page fault is an RNR NAK (hardware RNICs'): when the checked range of an RC
     * request reaches pages of an on-demand MR that are not present, they are asked for and the request is answered
     * with an RNR NAK (the PSN stays expected); the requester's retry after its RNR timer finds them. Otherwise (and
     * under rxe's in-line policy) the request goes on, and the DMA faults pages in as it reaches them.
     */
    private boolean naksPageFault(QpEngine e, RxPacket p, MptEntry entry, long va, long length) {
        if (!entry.onDemand()) {
            return false;
        }
        OnDemandPaging odp = memory.onDemandPaging();
        if (!odp.naksRemoteFaults() || e.qp.type() != QpType.RC || odp.present(entry, va, length, memory.mtt())) {
            return false;
        }
        odp.bringInLater(entry, va, length, memory.mtt());
        odp.rnrNakSent();
        responses.acknowledge(e, p.psn, AethSyndrome.rnrNak(e.qp.minRnrTimer()));
        return true;
    }

    /** No receive WQE for a message that needs one: an RNR NAK carrying min_rnr_timer (the PSN stays expected); on UC a drop. */
    private void noReceive(QpEngine e, RxPacket p) {
        if (e.qp.type() == QpType.UC) {
            receives.abandon(e);
            e.resp.epsn = Psn.next(p.psn);
            drops.drop(DropReason.NO_RESOURCES, e.qp.qpn(), p);
            return;
        }
        counters.increment(Counter.SEND_RNR_ERR);
        responses.acknowledge(e, p.psn, AethSyndrome.rnrNak(e.qp.minRnrTimer()));
    }

    /**
     * A request that breaks a rule, named by {@code detail} in the NAK's capture comment and the async event. RC: a
     * class C error (IBTA 9.9.3): NAK it and move the QP to the error state. UC, which has no NAK: drop it and the rest
     * of its message. A receive it was filling completes with receiveStatus (on RC, by default, REM_INV_REQ_ERR).
     */
    private void reject(QpEngine e, RxPacket p, NakCode code, WcStatus receiveStatus, String detail) {
        QueuePair qp = e.qp;
        if (qp.type() == QpType.UC) {
            if (receiveStatus != null && e.resp.recvWqe != null) {
                receives.fail(e, receiveStatus, 0);
            }
            receives.abandon(e);
            e.resp.epsn = Psn.next(p.psn);
            drops.drop(code == NakCode.REMOTE_ACCESS_ERROR ? DropReason.NO_RESOURCES : DropReason.MALFORMED, qp.qpn(), p);
            return;
        }
        responses.nak(e, p.psn, AethSyndrome.nak(code), detail == null ? null : "NAK " + code.description() + ": " + detail);
        if (e.resp.recvWqe != null) {
            receives.fail(e, receiveStatus != null ? receiveStatus : WcStatus.REM_INV_REQ_ERR, 0);
        }
        // The affiliated events verbs define: an access violation, an invalid request, else fatal.
        AsyncEventType event = code == NakCode.REMOTE_ACCESS_ERROR ? AsyncEventType.QP_ACCESS_ERR
                : code == NakCode.INVALID_REQUEST ? AsyncEventType.QP_REQ_ERR : AsyncEventType.QP_FATAL;
        control.error(e, event, "responder: " + code.description() + " at PSN " + Psn.format(p.psn)
                + (detail == null ? "" : ": " + detail));
    }

    /** The precise reason of a remote access error (built on the error path only). */
    private static String keyRefused(int rkey, AccessError err) {
        return "R_Key " + MemoryKey.format(rkey) + ": " + err.description();
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
    private void acknowledgeIfAsked(QpEngine e, RxPacket p) {
        if (p.ackRequest && e.qp.type() == QpType.RC) {
            ResponderState resp = e.resp;
            resp.ackOwed = true;
            resp.owedAckPsn = p.psn;
            resp.owedAckMsn = resp.msn;
            if (!resp.ackListed) {
                resp.ackListed = true;
                if (acksOwedCount == acksOwed.length) {
                    acksOwed = Arrays.copyOf(acksOwed, acksOwedCount * 2);
                }
                acksOwed[acksOwedCount++] = e;
            }
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
