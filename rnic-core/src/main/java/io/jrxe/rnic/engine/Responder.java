package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.Access;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MptEntry;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.rnic.queue.SharedReceiveQueue;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.MessagePosition;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;

/**
 * The responder: executes incoming requests. It checks the PSN (a duplicate is acknowledged
 * again or its READ response / atomic result replayed from the responder resources; a gap
 * gets one PSN sequence NAK), the opcode sequence and lengths, keys, PD, rights and bounds
 * (remote access NAK), consumes receive WQEs (none: RNR NAK with min_rnr_timer), performs
 * atomics (8-byte aligned) once, invalidates on SEND_WITH_INV, and acknowledges with the MSN.
 */
final class Responder {
    /** UD receivers find the packet's IP header in the first 40 bytes of their buffer (the GRH area). */
    static final int GRH_LENGTH = 40;

    private final DataPath dp;
    private final BthFlyweight bth = new BthFlyweight();
    private final RethFlyweight reth = new RethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();
    private final ByteBuffer grh = ByteBuffer.allocate(GRH_LENGTH);

    Responder(DataPath dp) {
        this.dp = dp;
    }

    void request(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, PacketInfo info) {
        bth.wrap(buf, offset);
        QueuePair qp = e.qp;
        if (qp.type() == QpType.UD) {
            udSend(e, op, buf, offset, payloadOffset, payloadLength, info);
            return;
        }
        int psn = bth.psn();
        if (qp.type() == QpType.UC) {
            ucRequest(e, op, buf, offset, payloadOffset, payloadLength, psn);
            return;
        }
        int diff = Psn.diff(psn, e.epsn);
        if (diff < 0) {
            duplicate(e, op, buf, offset, psn);
            return;
        }
        if (diff > 0) {
            dp.rnic.counters().increment(Counter.OUT_OF_SEQ_REQUEST);
            if (!e.sequenceNakSent) {
                e.sequenceNakSent = true;
                sendAck(e, e.epsn, AethSyndrome.nak(NakCode.PSN_SEQUENCE_ERROR));
            }
            return;
        }
        e.sequenceNakSent = false;
        NakCode nak = sequenceAndLength(e, op, payloadLength);
        if (nak != null) {
            fatal(e, psn, nak, null);
            return;
        }
        switch (op.operation()) {
            case SEND -> send(e, op, buf, offset, payloadOffset, payloadLength, psn);
            case RDMA_WRITE -> write(e, op, buf, offset, payloadOffset, payloadLength, psn);
            case RDMA_READ_REQUEST -> readRequest(e, buf, offset, psn);
            case COMPARE_SWAP, FETCH_ADD -> atomic(e, op, buf, offset, psn);
            case FLUSH -> flush(e, op, buf, offset, psn);
            case ATOMIC_WRITE -> atomicWrite(e, op, buf, offset, payloadOffset, psn);
            default -> fatal(e, psn, NakCode.INVALID_REQUEST, null);
        }
    }

    /** The opcode sequence (no MIDDLE/LAST without a FIRST, no new message inside one) and the payload lengths. */
    private NakCode sequenceAndLength(QpEngine e, Opcode op, int payloadLength) {
        MessagePosition pos = op.position();
        boolean inMessage = e.inMessage >= 0;
        if (pos.starts() == inMessage) {
            return NakCode.INVALID_REQUEST;
        }
        if (inMessage && op.operation().ordinal() != e.inMessage) {
            return NakCode.INVALID_REQUEST;
        }
        int mtu = Requester.mtu(e.qp);
        if ((pos == MessagePosition.FIRST || pos == MessagePosition.MIDDLE) && payloadLength != mtu) {
            return NakCode.INVALID_REQUEST;
        }
        if (payloadLength > mtu) {
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
        if (op.operation() == io.jrxe.wire.opcode.Operation.FLUSH
                && (e.qp.accessFlags() & (Access.FLUSH_GLOBAL | Access.FLUSH_PERSISTENT)) == 0) {
            return NakCode.INVALID_REQUEST;
        }
        return null;
    }

    private void send(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, int psn) {
        QueuePair qp = e.qp;
        if (op.position().starts() && !takeReceive(e)) {
            rnr(e, psn);
            return;
        }
        if (!receivePayload(e, buf, payloadOffset, payloadLength, psn)) {
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
                AccessError err = dp.rnic.memory().invalidate(imm, qp.pd());
                if (err != AccessError.NONE) {
                    // IBTA class J (rxe's RESPST_ERR_INVALIDATE_RKEY): the SEND was received, so it is
                    // acknowledged, not NAKed; the receive completes with REM_INV_REQ_ERR and this QP
                    // goes to the error state. A NAK here failed the requester, which rxe does not.
                    completeReceiveWithStatus(e, WcStatus.REM_INV_REQ_ERR, WcOpcode.RECV, 0, 0, 0, 0);
                    acknowledgeIfAsked(e, psn);
                    sendOwedAck(e);
                    dp.error(e, "responder: SEND with invalidate of key " + String.format("0x%08x", imm) + ": "
                            + err.description());
                    return;
                }
                flags |= WorkCompletion.WITH_INV;
            }
            completeReceive(e, WcOpcode.RECV, e.recvOffset, imm, flags, 0, bth.solicitedEvent());
        }
        acknowledgeIfAsked(e, psn);
    }

    private void write(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, int psn) {
        QueuePair qp = e.qp;
        if (op.position().starts()) {
            reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
            e.writeVa = reth.virtualAddress();
            e.writeRkey = reth.rkey();
            e.writeLength = reth.dmaLength();
            e.writeRemaining = e.writeLength;
            if (e.writeLength > 0) {
                AccessError err = dp.rnic.memory().check(e.writeRkey, qp.pd(), e.writeVa, e.writeLength, Access.REMOTE_WRITE, true);
                if (err != AccessError.NONE) {
                    fatal(e, psn, NakCode.REMOTE_ACCESS_ERROR, null);
                    return;
                }
            }
        }
        if (payloadLength > e.writeRemaining || op.position().ends() && payloadLength != e.writeRemaining) {
            fatal(e, psn, NakCode.INVALID_REQUEST, null);
            return;
        }
        if (op.hasImmediate() && !takeReceiveForImmediate(e)) {
            rnr(e, psn);
            return;
        }
        if (payloadLength > 0) {
            long va = e.writeVa + (e.writeLength - e.writeRemaining);
            AccessError err = dp.rnic.memory().check(e.writeRkey, qp.pd(), va, payloadLength, Access.REMOTE_WRITE, true);
            if (err != AccessError.NONE) {
                fatal(e, psn, NakCode.REMOTE_ACCESS_ERROR, null);
                return;
            }
            dp.dma.copy(dp.rnic.memory().lastChecked(), va, buf, payloadOffset, payloadLength, true);
        }
        e.writeRemaining -= payloadLength;
        advance(e, op, psn);
        if (op.hasImmediate()) {
            int imm = immDt.wrap(buf, offset + op.offsetOf(ExtensionHeader.IMMDT)).immediate();
            completeReceive(e, WcOpcode.RECV_RDMA_WITH_IMM, e.writeLength, imm, WorkCompletion.WITH_IMM, 0, bth.solicitedEvent());
        }
        acknowledgeIfAsked(e, psn);
    }

    private void readRequest(QpEngine e, ByteBuffer buf, int offset, int psn) {
        QueuePair qp = e.qp;
        reth.wrap(buf, offset + Opcode.RC_RDMA_READ_REQUEST.offsetOf(ExtensionHeader.RETH));
        long va = reth.virtualAddress();
        int rkey = reth.rkey();
        long length = reth.dmaLength();
        MptEntry entry = null;
        if (length > 0) {
            AccessError err = dp.rnic.memory().check(rkey, qp.pd(), va, length, Access.REMOTE_READ, true);
            if (err != AccessError.NONE) {
                fatal(e, psn, NakCode.REMOTE_ACCESS_ERROR, null);
                return;
            }
            entry = dp.rnic.memory().lastChecked();
        }
        int mtu = Requester.mtu(qp);
        int packets = (int) Math.max(1, (length + mtu - 1) / mtu);
        ResponderResource r = nextResource(e);
        r.kind = ResponderResource.READ;
        r.firstPsn = psn;
        r.lastPsn = Psn.add(psn, packets - 1);
        r.va = va;
        r.rkey = rkey;
        r.length = length;
        r.entry = entry;
        r.replyPsn = psn;
        r.replyOffset = 0;
        e.epsn = Psn.add(r.lastPsn, 1);
        e.msn = (e.msn + 1) & Psn.MASK;
        replyRead(e, r);
    }

    /** Sends a READ's response packets from its current reply point. */
    private void replyRead(QpEngine e, ResponderResource r) {
        sendOwedAck(e);
        QueuePair qp = e.qp;
        int mtu = Requester.mtu(qp);
        boolean firstPacket = true;
        while (true) {
            long remaining = r.length - r.replyOffset;
            int payload = (int) Math.min(mtu, remaining);
            boolean last = r.replyPsn == r.lastPsn;
            Opcode op = firstPacket && last ? Opcode.RC_RDMA_READ_RESPONSE_ONLY
                    : firstPacket ? Opcode.RC_RDMA_READ_RESPONSE_FIRST
                    : last ? Opcode.RC_RDMA_READ_RESPONSE_LAST : Opcode.RC_RDMA_READ_RESPONSE_MIDDLE;
            int pad = (4 - (payload & 3)) & 3;
            ByteBuffer tx = dp.tx;
            dp.txBth.wrap(tx, 0).set(op.code(), false, pad, BthFlyweight.DEFAULT_PKEY, qp.destQpn(), false, r.replyPsn);
            if (op.has(ExtensionHeader.AETH)) {
                aeth.wrap(tx, op.offsetOf(ExtensionHeader.AETH)).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), e.msn);
            }
            int at = op.headerLength();
            if (payload > 0) {
                dp.dma.copy(r.entry, r.va + r.replyOffset, tx, at, payload, false);
                at += payload;
            }
            for (int i = 0; i < pad; i++) {
                tx.put(at++, (byte) 0);
            }
            dp.send(e, e.peer, at);
            r.replyOffset += payload;
            if (last) {
                return;
            }
            r.replyPsn = Psn.next(r.replyPsn);
            firstPacket = false;
        }
    }

    private void atomic(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        QueuePair qp = e.qp;
        atomicEth.wrap(buf, offset + op.offsetOf(ExtensionHeader.ATOMIC_ETH));
        long va = atomicEth.virtualAddress();
        if ((va & 7) != 0) {
            fatal(e, psn, NakCode.INVALID_REQUEST, null);
            return;
        }
        AccessError err = dp.rnic.memory().check(atomicEth.rkey(), qp.pd(), va, 8, Access.REMOTE_ATOMIC, true);
        if (err != AccessError.NONE) {
            fatal(e, psn, NakCode.REMOTE_ACCESS_ERROR, null);
            return;
        }
        MptEntry entry = dp.rnic.memory().lastChecked();
        long original = dp.dma.readLong(entry, va);
        long result = op == Opcode.RC_COMPARE_SWAP
                ? (original == atomicEth.compare() ? atomicEth.swapAdd() : original)
                : original + atomicEth.swapAdd();
        dp.dma.writeLong(entry, va, result);
        ResponderResource r = nextResource(e);
        r.kind = ResponderResource.ATOMIC;
        r.firstPsn = psn;
        r.lastPsn = psn;
        r.atomicOriginal = original;
        e.epsn = Psn.next(psn);
        e.msn = (e.msn + 1) & Psn.MASK;
        sendAtomicAck(e, psn, original);
    }

    private void flush(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
        if (reth.dmaLength() > 0) {
            AccessError err = dp.rnic.memory().check(reth.rkey(), e.qp.pd(), reth.virtualAddress(), reth.dmaLength(),
                    Access.FLUSH_GLOBAL, true);
            if (err != AccessError.NONE) {
                fatal(e, psn, NakCode.REMOTE_ACCESS_ERROR, null);
                return;
            }
        }
        // Host memory is already globally visible once written: the flush has nothing to wait for.
        advance(e, op, psn);
        sendReadResponseAck(e, psn);
    }

    private void atomicWrite(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int psn) {
        reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
        long va = reth.virtualAddress();
        if ((va & 7) != 0) {
            fatal(e, psn, NakCode.INVALID_REQUEST, null);
            return;
        }
        AccessError err = dp.rnic.memory().check(reth.rkey(), e.qp.pd(), va, 8, Access.REMOTE_WRITE, true);
        if (err != AccessError.NONE) {
            fatal(e, psn, NakCode.REMOTE_ACCESS_ERROR, null);
            return;
        }
        dp.dma.copy(dp.rnic.memory().lastChecked(), va, buf, payloadOffset, 8, true);
        advance(e, op, psn);
        sendReadResponseAck(e, psn);
    }

    /** A request at a PSN already executed: acknowledge it again, or replay its READ response or atomic result. */
    private void duplicate(QpEngine e, Opcode op, ByteBuffer buf, int offset, int psn) {
        dp.rnic.counters().increment(Counter.DUPLICATE_REQUEST);
        if (op.operation() == Operation.RDMA_READ_REQUEST || op.operation() == Operation.COMPARE_SWAP
                || op.operation() == Operation.FETCH_ADD) {
            for (ResponderResource r : e.resources) {
                if (r.covers(psn)) {
                    if (r.kind == ResponderResource.ATOMIC) {
                        sendAtomicAck(e, psn, r.atomicOriginal);
                    } else {
                        reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
                        r.replyPsn = psn;
                        r.replyOffset = (long) Psn.distance(r.firstPsn, psn) * Requester.mtu(e.qp);
                        replyRead(e, r);
                    }
                    return;
                }
            }
            return; // too old to replay: the requester's retries will give up
        }
        if (op.operation() == Operation.FLUSH || op.operation() == Operation.ATOMIC_WRITE) {
            sendReadResponseAck(e, psn); // answered again, not executed again
            return;
        }
        sendAck(e, Psn.add(e.epsn, -1), AethSyndrome.ack(AethSyndrome.CREDITS_INVALID));
    }

    private void ucRequest(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, int psn) {
        MessagePosition pos = op.position();
        if (psn != e.epsn || pos.starts() == (e.inMessage >= 0)) {
            // A lost packet loses its whole message (IBTA 9.8.3): drop until the next FIRST or ONLY.
            abandonUcMessage(e);
            if (!pos.starts()) {
                e.epsn = Psn.next(psn);
                dp.drop(Counter.DROP_PSN_OUT_OF_WINDOW, e.qp.qpn(), psn, op.code());
                return;
            }
        }
        e.epsn = psn;
        int mtu = Requester.mtu(e.qp);
        if ((pos == MessagePosition.FIRST || pos == MessagePosition.MIDDLE) && payloadLength != mtu || payloadLength > mtu) {
            abandonUcMessage(e);
            e.epsn = Psn.next(psn);
            dp.drop(Counter.DROP_MALFORMED, e.qp.qpn(), psn, op.code());
            return;
        }
        if (op.operation() == Operation.SEND) {
            if (pos.starts() && !takeReceive(e)) {
                e.epsn = Psn.next(psn);
                dp.drop(Counter.DROP_NO_RESOURCES, e.qp.qpn(), psn, op.code());
                return;
            }
            if (!receivePayload(e, buf, payloadOffset, payloadLength, psn)) {
                return;
            }
            advance(e, op, psn);
            if (pos.ends()) {
                int imm = op.hasImmediate() ? immDt.wrap(buf, offset + op.offsetOf(ExtensionHeader.IMMDT)).immediate() : 0;
                completeReceive(e, WcOpcode.RECV, e.recvOffset, imm, op.hasImmediate() ? WorkCompletion.WITH_IMM : 0, 0,
                        bth.solicitedEvent());
            }
        } else if (op.operation() == Operation.RDMA_WRITE) {
            if (pos.starts()) {
                reth.wrap(buf, offset + op.offsetOf(ExtensionHeader.RETH));
                e.writeVa = reth.virtualAddress();
                e.writeRkey = reth.rkey();
                e.writeLength = reth.dmaLength();
                e.writeRemaining = e.writeLength;
            }
            long va = e.writeVa + (e.writeLength - e.writeRemaining);
            if (payloadLength > e.writeRemaining || pos.ends() && payloadLength != e.writeRemaining
                    || payloadLength > 0 && dp.rnic.memory().check(e.writeRkey, e.qp.pd(), va, payloadLength,
                    Access.REMOTE_WRITE, true) != AccessError.NONE
                    || (e.qp.accessFlags() & Access.REMOTE_WRITE) == 0) {
                abandonUcMessage(e);
                e.epsn = Psn.next(psn);
                dp.drop(Counter.DROP_NO_RESOURCES, e.qp.qpn(), psn, op.code());
                return;
            }
            if (op.hasImmediate() && !takeReceiveForImmediate(e)) {
                abandonUcMessage(e);
                e.epsn = Psn.next(psn);
                dp.drop(Counter.DROP_NO_RESOURCES, e.qp.qpn(), psn, op.code());
                return;
            }
            if (payloadLength > 0) {
                dp.dma.copy(dp.rnic.memory().lastChecked(), va, buf, payloadOffset, payloadLength, true);
            }
            e.writeRemaining -= payloadLength;
            advance(e, op, psn);
            if (op.hasImmediate()) {
                int imm = immDt.wrap(buf, offset + op.offsetOf(ExtensionHeader.IMMDT)).immediate();
                completeReceive(e, WcOpcode.RECV_RDMA_WITH_IMM, e.writeLength, imm, WorkCompletion.WITH_IMM, 0,
                        bth.solicitedEvent());
            }
        }
    }

    /** A UC message that lost a packet: a receive it had started goes back to the queue, unused. */
    private void abandonUcMessage(QpEngine e) {
        e.inMessage = -1;
        e.recvWqe = null;
        e.recvOffset = 0;
    }

    private void udSend(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength, PacketInfo info) {
        QueuePair qp = e.qp;
        deth.wrap(buf, offset + op.offsetOf(ExtensionHeader.DETH)); // its Q_Key was checked with the headers, in DataPath
        if (payloadLength > dp.rnic.port().activeMtu().bytes()) {
            dp.drop(Counter.DROP_MALFORMED, qp.qpn(), bth.psn(), op.code());
            return;
        }
        if (!takeReceive(e)) {
            dp.drop(Counter.DROP_NO_RESOURCES, qp.qpn(), bth.psn(), op.code());
            return;
        }
        // The GRH describes the datagram as it came: its UDP payload is the whole RoCE packet
        // (headers, ImmDt, payload, pad and ICRC), not just the BTH, DETH and payload.
        writeGrh(info, payloadOffset - offset + payloadLength + bth.padCount() + IcrcCalculator.LENGTH);
        ReceiveWqe wqe = e.recvWqe;
        if (wqe.sgl().totalLength() < GRH_LENGTH + payloadLength
                || dp.dma.scatter(qp.pd(), wqe.sgl(), 0, grh, 0, GRH_LENGTH) != AccessError.NONE
                || dp.dma.scatter(qp.pd(), wqe.sgl(), GRH_LENGTH, buf, payloadOffset, payloadLength) != AccessError.NONE) {
            WcStatus status = wqe.sgl().totalLength() < GRH_LENGTH + payloadLength ? WcStatus.LOC_LEN_ERR : WcStatus.LOC_PROT_ERR;
            completeReceiveWithStatus(e, status, WcOpcode.RECV, 0, 0, 0, deth.srcQpn());
            return;
        }
        int imm = op.hasImmediate() ? immDt.wrap(buf, offset + op.offsetOf(ExtensionHeader.IMMDT)).immediate() : 0;
        e.recvOffset = GRH_LENGTH + payloadLength;
        completeReceive(e, WcOpcode.RECV, e.recvOffset, imm,
                WorkCompletion.WITH_GRH | (op.hasImmediate() ? WorkCompletion.WITH_IMM : 0), deth.srcQpn(), bth.solicitedEvent());
    }

    /**
     * The GRH area as rxe fills it for RoCEv2: an IPv6 header fills all 40 bytes; an IPv4
     * header sits in the last 20, after 20 zero bytes.
     */
    private void writeGrh(PacketInfo info, int rocePacketLength) {
        ByteBuffer g = grh;
        for (int i = 0; i < GRH_LENGTH; i += 4) {
            g.putInt(i, 0);
        }
        PeerAddress src = info.source;
        PeerAddress dst = info.destination;
        int udpLength = 8 + rocePacketLength;
        if (src.ipv6()) {
            g.putInt(0, 6 << 28 | (info.trafficClass & 0xFF) << 20 | (info.flowLabel & 0xFFFFF));
            g.putInt(4, udpLength << 16 | 17 << 8 | (info.ttl & 0xFF));
            g.put(8, src.ipBytes(), 0, 16);
            g.put(24, dst.ipBytes(), 0, 16);
        } else {
            g.putInt(20, 0x45 << 24 | (info.trafficClass & 0xFF) << 16 | (20 + udpLength));
            g.putInt(24, (info.identification & 0xFFFF) << 16 | 0x4000);
            g.putInt(28, (info.ttl & 0xFF) << 24 | 17 << 16);
            g.putInt(32, src.ipv4());
            g.putInt(36, dst.ipv4());
            // rxe copies the received IPv4 header, whose checksum is valid: compute it the same way.
            int sum = 0;
            for (int i = 20; i < GRH_LENGTH; i += 2) {
                sum += g.getShort(i) & 0xFFFF;
            }
            sum = (sum & 0xFFFF) + (sum >>> 16);
            sum += sum >>> 16;
            g.putShort(30, (short) ~sum);
        }
    }

    /** Takes the next receive WQE from the QP's receive queue or its SRQ; false when there is none. */
    private boolean takeReceive(QpEngine e) {
        QueuePair qp = e.qp;
        SharedReceiveQueue srq = qp.srq();
        ReceiveWqe wqe;
        if (srq != null) {
            ReceiveWqe shared = srq.queue().peek();
            if (shared == null) {
                return false;
            }
            wqe = e.srqCopy(srq.maxSge());
            wqe.wrId(shared.wrId());
            wqe.sgl().copyFrom(shared.sgl());
            srq.queue().remove();
            if (srq.limitReached()) {
                dp.rnic.events().post(new AsyncEvent(AsyncEventType.SRQ_LIMIT_REACHED, srq.handle(),
                        "fewer WRs are posted than the armed limit"));
            }
            e.recvFromSrq = true;
        } else {
            wqe = qp.recvQueue().peek();
            if (wqe == null) {
                return false;
            }
            e.recvFromSrq = false;
        }
        e.recvWqe = wqe;
        e.recvOffset = 0;
        return true;
    }

    private boolean takeReceiveForImmediate(QpEngine e) {
        return e.recvWqe != null || takeReceive(e);
    }

    /** Scatters a SEND's payload into the receive WQE; a message too long for it fails the receive. */
    private boolean receivePayload(QpEngine e, ByteBuffer buf, int payloadOffset, int payloadLength, int psn) {
        if (payloadLength == 0) {
            return true;
        }
        ReceiveWqe wqe = e.recvWqe;
        if (e.recvOffset + payloadLength > wqe.sgl().totalLength()) {
            fatal(e, psn, NakCode.INVALID_REQUEST, WcStatus.LOC_LEN_ERR);
            return false;
        }
        AccessError err = dp.dma.scatter(e.qp.pd(), wqe.sgl(), e.recvOffset, buf, payloadOffset, payloadLength);
        if (err != AccessError.NONE) {
            fatal(e, psn, NakCode.REMOTE_OPERATIONAL_ERROR, WcStatus.LOC_PROT_ERR);
            return false;
        }
        e.recvOffset += payloadLength;
        return true;
    }

    private void completeReceive(QpEngine e, WcOpcode opcode, long bytes, int imm, int flags, int srcQp, boolean solicited) {
        QueuePair qp = e.qp;
        // The receive queue's slot is freed before the completion is published: an application that reposts a
        // receive as soon as it sees the completion (as ibv_rc_pingpong does) must find the slot free, as on rxe.
        long wrId = e.recvWqe.wrId();
        releaseReceive(e);
        dp.complete(qp.recvCq(), wrId, WcStatus.SUCCESS, opcode, 0, bytes, imm, qp.qpn(), srcQp, flags, solicited);
        dp.rnic.counters().increment(Counter.RDMA_RECVS);
    }

    private void completeReceiveWithStatus(QpEngine e, WcStatus status, WcOpcode opcode, long bytes, int imm, int flags, int srcQp) {
        QueuePair qp = e.qp;
        long wrId = e.recvWqe.wrId();
        releaseReceive(e);
        dp.complete(qp.recvCq(), wrId, status, opcode, 0, bytes, imm, qp.qpn(), srcQp, flags, false);
    }

    private void releaseReceive(QpEngine e) {
        if (!e.recvFromSrq) {
            e.qp.recvQueue().remove();
        }
        e.recvWqe = null;
        e.recvOffset = 0;
    }

    /** The request was executed: the next PSN is expected, and a message that ended counts in the MSN. */
    private void advance(QpEngine e, Opcode op, int psn) {
        e.epsn = Psn.next(psn);
        if (op.position().ends()) {
            e.inMessage = -1;
            e.msn = (e.msn + 1) & Psn.MASK;
        } else if (op.position().starts()) {
            e.inMessage = op.operation().ordinal();
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
            e.ackOwed = true;
            e.owedAckPsn = psn;
            e.owedAckMsn = e.msn;
            dp.ackOwed(e);
        }
    }

    /** Sends the QP's owed ACK, if any (at the end of a receive burst, or before another response). */
    void sendOwedAck(QpEngine e) {
        if (e.ackOwed) {
            e.ackOwed = false;
            writeAck(e, e.owedAckPsn, AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), e.owedAckMsn);
        }
    }

    /** No receive WQE for a SEND: RNR NAK carrying the QP's min_rnr_timer; the PSN stays expected. */
    private void rnr(QpEngine e, int psn) {
        dp.rnic.counters().increment(Counter.SEND_RNR_ERR);
        sendAck(e, psn, AethSyndrome.rnrNak(e.qp.minRnrTimer()));
    }

    /**
     * A class C error (IBTA 9.9.3): NAK the request and move the QP to the error state; a
     * receive it was filling completes with the local status, if one is given.
     */
    private void fatal(QpEngine e, int psn, NakCode code, WcStatus receiveStatus) {
        sendAck(e, psn, AethSyndrome.nak(code));
        if (e.recvWqe != null) {
            completeReceiveWithStatus(e, receiveStatus != null ? receiveStatus : WcStatus.REM_INV_REQ_ERR, WcOpcode.RECV,
                    0, 0, 0, 0);
        }
        // The affiliated events verbs define: an access violation, an invalid request, else fatal.
        AsyncEventType event = code == NakCode.REMOTE_ACCESS_ERROR ? AsyncEventType.QP_ACCESS_ERR
                : code == NakCode.INVALID_REQUEST ? AsyncEventType.QP_REQ_ERR : AsyncEventType.QP_FATAL;
        dp.error(e, event, "responder: " + code.description() + " at PSN " + Psn.format(psn));
    }

    void sendAck(QpEngine e, int psn, int syndrome) {
        sendOwedAck(e);
        writeAck(e, psn, syndrome, e.msn);
    }

    private void writeAck(QpEngine e, int psn, int syndrome, int msn) {
        ByteBuffer tx = dp.tx;
        dp.txBth.wrap(tx, 0).set(Opcode.RC_ACKNOWLEDGE.code(), false, 0, BthFlyweight.DEFAULT_PKEY, e.qp.destQpn(), false, psn);
        aeth.wrap(tx, BthFlyweight.LENGTH).set(syndrome, msn);
        dp.send(e, e.peer, Opcode.RC_ACKNOWLEDGE.headerLength());
    }

    /**
     * FLUSH and ATOMIC WRITE are answered with an RDMA READ response of length zero (IBTA's memory
     * placement extensions; rxe's send_read_response_ack), whatever their AckReq bit: an RC ACK
     * there made an rxe requester fail the work request.
     */
    private void sendReadResponseAck(QpEngine e, int psn) {
        sendOwedAck(e);
        ByteBuffer tx = dp.tx;
        Opcode op = Opcode.RC_RDMA_READ_RESPONSE_ONLY;
        dp.txBth.wrap(tx, 0).set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, e.qp.destQpn(), false, psn);
        aeth.wrap(tx, op.offsetOf(ExtensionHeader.AETH)).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), e.msn);
        dp.send(e, e.peer, op.headerLength());
    }

    private void sendAtomicAck(QpEngine e, int psn, long original) {
        sendOwedAck(e);
        ByteBuffer tx = dp.tx;
        Opcode op = Opcode.RC_ATOMIC_ACKNOWLEDGE;
        dp.txBth.wrap(tx, 0).set(op.code(), false, 0, BthFlyweight.DEFAULT_PKEY, e.qp.destQpn(), false, psn);
        aeth.wrap(tx, op.offsetOf(ExtensionHeader.AETH)).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), e.msn);
        atomicAck.wrap(tx, op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH)).originalData(original);
        dp.send(e, e.peer, op.headerLength());
    }

    private ResponderResource nextResource(QpEngine e) {
        int n = Math.max(1, Math.min(e.resources.length, e.qp.maxDestRdAtomic()));
        ResponderResource r = e.resources[e.nextResource % n];
        e.nextResource = (e.nextResource + 1) % n;
        r.clear();
        return r;
    }
}
