package io.jrxe.rnic.engine;

import io.jrxe.rnic.AddressHandle;
import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.RnicException;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.memory.MemoryTables;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.MemoryBindRequest;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.rnic.queue.WqeState;
import io.jrxe.rnic.queue.WrOpcodeInfo;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AtomicEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.header.FethFlyweight;
import io.jrxe.wire.header.IethFlyweight;
import io.jrxe.wire.header.ImmDtFlyweight;
import io.jrxe.wire.header.RethFlyweight;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.psn.Psn;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;

/**
 * The requester: turns send queue entries into packets. It segments messages by the path MTU,
 * picks FIRST/MIDDLE/LAST/ONLY opcodes, numbers packets, asks for an ACK on the last packet of a
 * message that no other follows at once and at least every 64 packets, keeps to max_rd_atomic
 * outstanding READs and atomics, to a window of unacknowledged PSNs and to what congestion control
 * allows, waits at fences, and runs local operations (LOCAL_INV, BIND_MW, REG_MR) in order. It
 * goes back when the completer's retry hand-off asks (go-back-N), and waits out an RNR NAK's time.
 * Only it writes {@link RequesterState}.
 */
final class Requester {
    /** Unacknowledged PSNs a requester may have outstanding (rxe's RXE_MAX_UNACKED_PSNS). */
    static final int MAX_UNACKED_PSNS = 128;
    /** The requester asks for an ACK at least this often (rxe's RXE_MAX_PKT_PER_ACK). */
    static final int MAX_PACKETS_PER_ACK = 64;
    /**
     * A message that others follow and that someone waits for asks for an ACK if this many packets went since the
     * last ask. A signaled one is waited for by its poster; near the congestion control's limit every one is, by
     * the QPs the window holds back. Asking every 8 packets there (an ACK per two 4 KiB writes, each a system call
     * of its QP's socket on the responder and a receive on the requester) held {@code write-bw -q 1000} to 0.6-0.8
     * of {@code -q 1}. Room still comes back in time: a turn's last packet and a QP the window refuses ask as well.
     */
    static final int WAITED_FOR_ACK_PACKETS = 32;

    private final NicResources resources;
    private final MemoryTables memory;
    private final Transmitter out;
    private final Dma dma;
    private final NicTime time;
    private final Tracer tracer;
    private final RethFlyweight reth = new RethFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    private final AtomicEthFlyweight atomicEth = new AtomicEthFlyweight();
    private final DethFlyweight deth = new DethFlyweight();
    private final FethFlyweight feth = new FethFlyweight();

    Requester(NicResources resources, Transmitter out, Dma dma, NicTime time, Tracer tracer) {
        this.resources = resources;
        this.memory = resources.memory();
        this.out = out;
        this.dma = dma;
        this.time = time;
        this.tracer = tracer;
    }

    /** The QP entered RTS (or RESET): its PSN, from the send queue's head, nothing outstanding. */
    void reset(QpEngine e, int sqPsn) {
        e.rtt.drop();
        e.req.reset(sqPsn, e.qp.sendQueue().consumed(), e.comp.readsAtomicsRetired, e.comp.retryAsked);
    }

    /** The completer flushed the send queue (the QP is in ERR): nothing is outstanding. */
    void flushed(QpEngine e) {
        e.rtt.drop();
        RequesterState req = e.req;
        req.next = e.qp.sendQueue().consumed();
        req.readsAtomicsStarted = e.comp.readsAtomicsRetired;
        req.retriesTaken = e.comp.retryAsked;
    }

    /**
     * One turn: goes back first if the completer asked for a retry, then sends until the send queue
     * is empty, a limit holds it (the unacknowledged-PSN window, congestion control, a fence,
     * max_rd_atomic, an RNR wait) or {@code budget} packets went out. Returns the packets sent.
     */
    int run(QpEngine e, int budget) {
        QueuePair qp = e.qp;
        RequesterState req = e.req;
        CompleterState comp = e.comp;
        WorkQueue<SendWqe> sq = qp.sendQueue();
        if (req.next < sq.consumed()) {
            req.next = sq.consumed(); // the completer failed the WQE the requester was about to start
        }
        if (req.retriesTaken != comp.retryAsked) {
            req.retriesTaken = comp.retryAsked;
            rewind(e, Psn.before(comp.retryPsn, comp.compPsn) ? comp.compPsn : comp.retryPsn);
        }
        if (qp.state() != QpState.RTS || time.nanoTime() < comp.rnrResumeAt) {
            return 0;
        }
        boolean rc = qp.type() == QpType.RC;
        int sent = 0;
        while (sent < budget && qp.state() == QpState.RTS) {
            SendWqe w = sq.at(req.next);
            if (w == null) {
                break;
            }
            if (w.state == WqeState.POSTED && !start(e, w)) {
                break;
            }
            if (w.state == WqeState.DONE) {
                // A local operation, run as the requester reached it (now, or before a go-back-N rewind to a
                // request ahead of it): it has no packets, and it must not run twice.
                req.next++;
                continue;
            }
            if (rc && Psn.distance(comp.compPsn, req.psn) >= MAX_UNACKED_PSNS) {
                break;
            }
            if (rc && !(Psn.before(req.psn, req.sentHighWater) ? e.flow.mayResend() : e.flow.mayTransmit())) {
                break; // congestion control wakes the QP when it may send again
            }
            if (!sendPacket(e, w, sent + 1 >= budget)) {
                break; // a send-side error: the completer fails the WQE and the QP
            }
            sent++;
        }
        return sent;
    }

    /** Prepares a WQE the requester reaches for the first time; false when it must wait. */
    private boolean start(QpEngine e, SendWqe w) {
        QueuePair qp = e.qp;
        RequesterState req = e.req;
        WrOpcodeInfo info = w.info;
        long outstanding = req.readsAtomicsStarted - e.comp.readsAtomicsRetired;
        if ((w.flags & SendWr.FENCE) != 0 && outstanding > 0) {
            return false;
        }
        if (info.readOrAtomic() && outstanding >= Math.max(1, qp.maxRdAtomic())) {
            return false;
        }
        tracer.trace(TraceEvent.FETCHED, qp.qpn(), w.wrId, req.psn, w.opcode.ordinal(), w.length());
        if (info.local()) {
            runLocal(e, w);
            return true;
        }
        int packets = info.psns(w.length(), segmentSize(qp));
        w.firstPsn = req.psn;
        w.lastPsn = Psn.add(req.psn, packets - 1);
        w.responseStartPsn = req.psn;
        w.sentBytes = 0;
        w.state = WqeState.SENDING;
        if (info.readOrAtomic()) {
            req.readsAtomicsStarted++;
            w.readAtomicCounted = true;
        }
        return true;
    }

    /** LOCAL_INV, BIND_MW, REG_MR: run on the NIC's tables in send-queue order; done with their status. */
    private void runLocal(QpEngine e, SendWqe w) {
        QueuePair qp = e.qp;
        switch (w.opcode) {
            case LOCAL_INV -> {
                AccessError err = memory.invalidate(w.immOrInvalidate, qp.pd());
                finish(w, err == AccessError.NONE ? WcStatus.SUCCESS : WcStatus.LOC_QP_OP_ERR, err);
            }
            case BIND_MW -> {
                try {
                    MemoryBindRequest b = w.bind;
                    memory.bindMw(b.mwKey, qp.pd(), b.mrKey, b.addr, b.length, b.access, b.newKey & 0xFF);
                    finish(w, WcStatus.SUCCESS, AccessError.NONE);
                } catch (RnicException ex) {
                    finish(w, WcStatus.MW_BIND_ERR, AccessError.NO_PERMISSION);
                }
            }
            case REG_MR -> {
                MemoryBindRequest b = w.bind;
                AccessError err = memory.fastRegister(b.mrKey, qp.pd(), b.newKey & 0xFF, b.addr, b.length, b.access);
                finish(w, err == AccessError.NONE ? WcStatus.SUCCESS : WcStatus.LOC_QP_OP_ERR, err);
            }
            default -> throw new IllegalStateException(w.opcode + " is not a local operation");
        }
    }

    /**
     * Whether a message's last packet asks for an ACK. rxe's always does; jrxe's does unless another
     * message follows at once (the next WQE is posted and congestion control lets its first packet go)
     * and no one waits for this one: one ACK for a later PSN completes both. A poster with a full send
     * queue waits for a signaled WQE's completion, and near the congestion control's limit the QPs held
     * back wait for the room any ACK frees, so those ask unless it is fewer than
     * {@link #WAITED_FOR_ACK_PACKETS} packets since the last ask. A bulk stream of signaled 64 KiB writes
     * then gets an ACK per two messages, a stream of small sends with a completion every hundred gets one
     * at each, and at least every {@link #MAX_PACKETS_PER_ACK} packets one is asked for: on loopback each
     * ACK costs the responder a send and the requester a receive, as much CPU as a tenth of a 64 KiB
     * message's data. The last message posted always asks, so a lone request (every latency test) looks
     * as rxe's does.
     */
    private boolean askAtMessageEnd(QpEngine e, SendWqe w) {
        if (e.qp.sendQueue().at(e.req.next + 1) == null || e.flow.refusesNext()) {
            return true;
        }
        boolean waitedFor = w.signaled() || e.qp.sqSigAll() || e.flow.nearLimit();
        return waitedFor && e.req.packetsSinceAckRequest + 1 >= WAITED_FOR_ACK_PACKETS;
    }

    /** A WQE done without packets (a local operation, a send-side error): the completer reports it. */
    private static void finish(SendWqe w, WcStatus status, AccessError why) {
        w.finish(status, why.code());
    }

    static int mtu(QueuePair qp) {
        return qp.pathMtu().bytes();
    }

    /**
     * The largest payload of one packet. A UD QP has no path MTU (its pathMtu attribute keeps the
     * default 1024): its datagrams are limited by the port's active MTU, as post_send checked and
     * as rxe's get_mtu() does; using 1024 would split a larger datagram into several UD packets.
     */
    private int segmentSize(QueuePair qp) {
        return qp.type() == QpType.UD ? resources.port().activeMtu().bytes() : mtu(qp);
    }

    /**
     * Builds and sends the WQE's next packet; false when a send-side error failed it instead. The last packet the
     * task's budget allows asks for an ACK: the QP may find the window taken when its task runs again, and packets
     * that asked for none would wait for the ACK timeout while holding room in it.
     */
    private boolean sendPacket(QpEngine e, SendWqe w, boolean lastOfTurn) {
        QueuePair qp = e.qp;
        RequesterState req = e.req;
        WrOpcodeInfo info = w.info;
        int mtu = segmentSize(qp);
        long length = w.length();
        long remaining = length - w.sentBytes;
        boolean readRequest = w.opcode == WrOpcode.RDMA_READ;
        boolean first = w.sentBytes == 0 || info.onePacket();
        boolean last = info.onePacket() || remaining <= mtu;
        int payload = info.carriesPayload() ? (int) Math.min(mtu, remaining) : 0;
        Opcode op = opcodeFor(qp.type(), w.opcode, first, last);
        boolean ackRequest = qp.type() == QpType.RC
                && (readRequest || lastOfTurn || (last ? askAtMessageEnd(e, w) : e.flow.refusesNext())
                    || ++req.packetsSinceAckRequest >= MAX_PACKETS_PER_ACK);
        if (ackRequest) {
            req.packetsSinceAckRequest = 0;
        }
        boolean solicited = last && (w.flags & SendWr.SOLICITED) != 0;
        int pad = (4 - (payload & 3)) & 3;
        PeerAddress to = e.peer;
        int destQpn = qp.destQpn();
        if (qp.type() == QpType.UD) {
            AddressHandle ah = resources.ah(w.ahHandle);
            if (ah == null) {
                finish(w, WcStatus.LOC_QP_OP_ERR, AccessError.KEY_NOT_FOUND);
                return false;
            }
            to = ah.destination();
            destQpn = w.remoteQpn;
        }
        ByteBuffer tx = out.tx;
        out.bth().set(op.code(), solicited, pad, BthFlyweight.DEFAULT_PKEY, destQpn, ackRequest, req.psn);
        writeExtensions(e, w, op, tx);
        int at = op.headerLength();
        if (payload > 0) {
            if ((w.flags & SendWr.INLINE) != 0) {
                tx.put(at, w.inline, (int) w.sentBytes, payload);
            } else {
                AccessError err = dma.gather(qp.pd(), w.sgl, w.sentBytes, tx, at, payload);
                if (err != AccessError.NONE) {
                    // No counter moves: rxe's send_err counts packets its transmit failed, and this WQE sent none.
                    finish(w, WcStatus.LOC_PROT_ERR, err);
                    return false;
                }
                tracer.trace(TraceEvent.TRANSLATED, qp.qpn(), w.wrId, req.psn, op.code(), payload);
            }
            at += payload;
        }
        for (int i = 0; i < pad; i++) {
            tx.put(at++, (byte) 0);
        }
        boolean resend = Psn.before(req.psn, req.sentHighWater);
        if (out.capturing()) {
            annotate(e, resend ? retransmissionNote(e) : null);
        }
        out.send(to, e.srcPort, at);
        tracer.trace(TraceEvent.PACKET_SENT, qp.qpn(), w.wrId, req.psn, op.code(), payload);
        if (qp.type() == QpType.RC) {
            if (resend) {
                e.flow.resent(at);
            } else {
                e.flow.transmitted(at);
                if (ackRequest && e.rtt.idle()) {
                    e.rtt.start(req.psn, time.nanoTime()); // one clock read per timed packet, none while one is timed
                }
            }
        }

        if (readRequest) {
            req.psn = Psn.add(w.lastPsn, 1);
            w.sentBytes = length;
        } else {
            req.psn = Psn.next(req.psn);
            w.sentBytes += payload;
        }
        if (Psn.after(req.psn, req.sentHighWater)) {
            req.sentHighWater = req.psn;
        }
        e.recountInFlight();
        if (ackRequest) {
            e.flow.ackRequested();
        }
        if (last) {
            req.next++;
            // nothing acknowledges UC and UD: done once sent
            w.state = qp.type() == QpType.RC ? WqeState.SENT : WqeState.DONE;
        }
        return true;
    }

    private void writeExtensions(QpEngine e, SendWqe w, Opcode op, ByteBuffer tx) {
        QueuePair qp = e.qp;
        if (op.has(ExtensionHeader.DETH)) {
            int qkey = w.remoteQkey < 0 ? qp.qkey() : w.remoteQkey; // high bit set: the QP's own Q_Key (IBTA 10.2.5)
            deth.wrap(tx, op.offsetOf(ExtensionHeader.DETH)).set(qkey, qp.qpn());
        }
        if (op.has(ExtensionHeader.FETH)) {
            feth.wrap(tx, op.offsetOf(ExtensionHeader.FETH)).set(FethFlyweight.SELECTIVITY_RANGE,
                    FethFlyweight.PLACEMENT_GLOBAL_VISIBILITY);
        }
        if (op.has(ExtensionHeader.RETH)) {
            long length = w.opcode == WrOpcode.ATOMIC_WRITE ? 8 : w.length() - w.sentBytes;
            reth.wrap(tx, op.offsetOf(ExtensionHeader.RETH)).set(w.remoteAddr + w.sentBytes, w.rkey, length);
            if (w.opcode != WrOpcode.RDMA_READ && w.opcode != WrOpcode.FLUSH && w.opcode != WrOpcode.ATOMIC_WRITE) {
                reth.dmaLength(w.length()); // a WRITE's RETH carries the whole message's length
            }
        }
        if (op.has(ExtensionHeader.ATOMIC_ETH)) {
            boolean cas = w.opcode == WrOpcode.ATOMIC_CMP_AND_SWP;
            atomicEth.wrap(tx, op.offsetOf(ExtensionHeader.ATOMIC_ETH)).set(w.remoteAddr, w.rkey,
                    cas ? w.swap : w.compareAdd, cas ? w.compareAdd : 0);
        }
        if (op.has(ExtensionHeader.IMMDT)) {
            immDt.wrap(tx, op.offsetOf(ExtensionHeader.IMMDT)).immediate(w.immOrInvalidate);
        }
        if (op.has(ExtensionHeader.IETH)) {
            ieth.wrap(tx, op.offsetOf(ExtensionHeader.IETH)).rkey(w.immOrInvalidate);
        }
    }

    /** What a capture says of a packet sent again: which retry, of which PSN, and why. */
    private static String retransmissionNote(QpEngine e) {
        CompleterState comp = e.comp;
        String cause = comp.retryCause == null ? "" : " " + comp.retryCause.text;
        return comp.retryNumber > 0
                ? String.format("retransmission %d of PSN 0x%06x%s", comp.retryNumber, e.req.psn, cause)
                : String.format("resend of PSN 0x%06x%s", e.req.psn, cause);
    }

    /** The capture's comment on the packet about to go: why it is sent again, the QP's rate change not yet told, both or none. */
    private void annotate(QpEngine e, String retransmission) {
        String note = retransmission;
        if (e.rateNote != null) {
            note = note == null ? e.rateNote : note + "; " + e.rateNote;
            e.rateNote = null;
        }
        if (note != null) {
            out.annotateNext(note);
        }
    }

    /**
     * Go-back-N: points the requester back at psn. The WQE holding it resumes there (a READ asks
     * for its response from there), the later ones start over, and those of them that were READs
     * or atomics no longer count as outstanding.
     */
    private void rewind(QpEngine e, int psn) {
        e.rtt.drop(); // Karn's rule: an answer to a packet sent again could be to either copy
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        RequesterState req = e.req;
        int mtu = mtu(e.qp);
        long target = -1;
        for (long i = sq.consumed(); i <= req.next; i++) {
            SendWqe w = sq.at(i);
            if (w == null || w.state == WqeState.POSTED) {
                break;
            }
            if (target < 0 && w.state != WqeState.DONE && !Psn.after(psn, w.lastPsn) && !Psn.before(psn, w.firstPsn)) {
                target = i;
                w.state = WqeState.SENDING;
                w.sentBytes = Math.min(w.length(), (long) Psn.distance(w.firstPsn, psn) * mtu);
                if (w.opcode == WrOpcode.RDMA_READ) {
                    w.responseStartPsn = psn;
                }
            } else if (target >= 0 && w.state != WqeState.DONE) {
                w.state = WqeState.POSTED;
                if (w.readAtomicCounted) {
                    w.readAtomicCounted = false;
                    req.readsAtomicsStarted--;
                }
            }
        }
        if (target < 0) {
            return;
        }
        req.next = target;
        req.psn = psn;
        e.recountInFlight();
        req.packetsSinceAckRequest = 0;
    }

    /** The packet opcode for a work request's packet on this transport. */
    static Opcode opcodeFor(QpType type, WrOpcode wr, boolean first, boolean last) {
        boolean rc = type == QpType.RC;
        if (type == QpType.UD) {
            return wr == WrOpcode.SEND_WITH_IMM ? Opcode.UD_SEND_ONLY_WITH_IMMEDIATE : Opcode.UD_SEND_ONLY;
        }
        return switch (wr) {
            case SEND, SEND_WITH_IMM, SEND_WITH_INV -> {
                if (first && last) {
                    yield wr == WrOpcode.SEND_WITH_IMM ? (rc ? Opcode.RC_SEND_ONLY_WITH_IMMEDIATE : Opcode.UC_SEND_ONLY_WITH_IMMEDIATE)
                            : wr == WrOpcode.SEND_WITH_INV ? Opcode.RC_SEND_ONLY_WITH_INVALIDATE
                            : rc ? Opcode.RC_SEND_ONLY : Opcode.UC_SEND_ONLY;
                }
                if (first) {
                    yield rc ? Opcode.RC_SEND_FIRST : Opcode.UC_SEND_FIRST;
                }
                if (!last) {
                    yield rc ? Opcode.RC_SEND_MIDDLE : Opcode.UC_SEND_MIDDLE;
                }
                yield wr == WrOpcode.SEND_WITH_IMM ? (rc ? Opcode.RC_SEND_LAST_WITH_IMMEDIATE : Opcode.UC_SEND_LAST_WITH_IMMEDIATE)
                        : wr == WrOpcode.SEND_WITH_INV ? Opcode.RC_SEND_LAST_WITH_INVALIDATE
                        : rc ? Opcode.RC_SEND_LAST : Opcode.UC_SEND_LAST;
            }
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> {
                boolean imm = wr == WrOpcode.RDMA_WRITE_WITH_IMM;
                if (first && last) {
                    yield imm ? (rc ? Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE : Opcode.UC_RDMA_WRITE_ONLY_WITH_IMMEDIATE)
                            : rc ? Opcode.RC_RDMA_WRITE_ONLY : Opcode.UC_RDMA_WRITE_ONLY;
                }
                if (first) {
                    yield rc ? Opcode.RC_RDMA_WRITE_FIRST : Opcode.UC_RDMA_WRITE_FIRST;
                }
                if (!last) {
                    yield rc ? Opcode.RC_RDMA_WRITE_MIDDLE : Opcode.UC_RDMA_WRITE_MIDDLE;
                }
                yield imm ? (rc ? Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE : Opcode.UC_RDMA_WRITE_LAST_WITH_IMMEDIATE)
                        : rc ? Opcode.RC_RDMA_WRITE_LAST : Opcode.UC_RDMA_WRITE_LAST;
            }
            case RDMA_READ -> Opcode.RC_RDMA_READ_REQUEST;
            case ATOMIC_CMP_AND_SWP -> Opcode.RC_COMPARE_SWAP;
            case ATOMIC_FETCH_AND_ADD -> Opcode.RC_FETCH_ADD;
            case FLUSH -> Opcode.RC_FLUSH;
            case ATOMIC_WRITE -> Opcode.RC_ATOMIC_WRITE;
            default -> throw new IllegalStateException(wr + " makes no packets");
        };
    }
}
