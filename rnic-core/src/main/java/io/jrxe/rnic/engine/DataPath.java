package io.jrxe.rnic.engine;

import io.jrxe.rnic.Rnic;
import io.jrxe.rnic.device.Counter;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.CompletionQueue;
import io.jrxe.rnic.queue.ReceiveWqe;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.DethFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Transport;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.RoceSourcePort;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;

/**
 * The data path of one device: the receive dispatch (BTH, then the QP by number, then the
 * responder for requests or the completer for responses), the three engines, and what they
 * share: the transmit buffer, the DMA engine, completions, the error flush and the trace.
 * Everything here runs on the NIC thread.
 */
public final class DataPath implements PacketSink {
    /** A QP's task sends at most this many packets per turn, so that receives and other QPs get theirs. */
    static final int PACKETS_PER_TURN = 64;
    private static final int GSI_QPN = io.jrxe.wire.cm.MadHeaderFlyweight.GSI_QPN;

    final Rnic rnic;
    final PacketPort port;
    final NicTime time;
    final Dma dma;
    final ByteBuffer tx = ByteBuffer.allocateDirect(4096 + 256);
    final BthFlyweight txBth = new BthFlyweight();
    private final BthFlyweight rxBth = new BthFlyweight();
    private final DethFlyweight rxDeth = new DethFlyweight();
    private final QpTable engines = new QpTable();
    final Requester requester;
    final Completer completer;
    final Responder responder;
    final DeviceWindow window = new DeviceWindow(this);
    private final GsiQp gsi;
    private final MulticastReceiver multicast;
    private TraceListener trace;

    public DataPath(Rnic rnic, PacketPort port, NicTime time) {
        this.rnic = rnic;
        this.port = port;
        this.time = time;
        this.dma = new Dma(rnic.memory(), this);
        this.requester = new Requester(this);
        this.completer = new Completer(this);
        this.responder = new Responder(this);
        this.gsi = new GsiQp(this);
        this.multicast = new MulticastReceiver(this);
        port.receiver(this);
    }

    public void trace(TraceListener listener) {
        trace = listener;
    }

    /** Whether a listener is installed: callers check it before computing what only a trace needs. */
    boolean tracing() {
        return trace != null;
    }

    /** The listener, or null (for the DMA engine's per-page translation events). */
    TraceListener tracer() {
        return trace;
    }

    void trace(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        TraceListener t = trace;
        if (t != null) {
            t.event(event, qpn, wrId, psn, opcode, value);
        }
    }

    public NicTime time() {
        return time;
    }

    public PacketPort port() {
        return port;
    }

    /** The port's GSI QP (QP1), where management agents (the CM) register and send. */
    public GsiQp gsi() {
        return gsi;
    }

    /** Starts moving a QP's traffic (after create_qp, on the NIC thread); the handle is its doorbell. */
    public QpHandle attach(QueuePair qp) {
        QpEngine e = new QpEngine(qp, rnic.attributes().maxQpRdAtom(), this);
        engines.put(qp.qpn(), e);
        return new QpHandle(this, e);
    }

    public void detach(QueuePair qp) {
        QpEngine e = engines.get(qp.qpn());
        if (e != null) {
            e.resp.ackOwed = false; // a destroyed QP answers nothing more
            e.resp.responses.clear();
            e.comp.compPsn = e.req.psn;
            window.update(e);
        }
        engines.remove(qp.qpn());
    }

    /**
     * Called after every successful modify-QP: entering RTR sets the responder's expected PSN
     * and the peer, entering RTS the requester's PSN; entering ERR flushes; RESET forgets.
     */
    public void modified(QueuePair qp, QpState from) {
        QpEngine e = engines.get(qp.qpn());
        if (e == null) {
            return;
        }
        QpState to = qp.state();
        if (to == QpState.RTR && from != QpState.RTR) {
            e.resetReceive(qp.rqPsn());
            if (qp.av() != null) {
                e.peer = PeerAddress.ofGid(qp.av().dgid());
                e.local = PeerAddress.ofGid(rnic.port().gid(qp.av().sgidIndex()).gid());
            }
            // As rxe (rdma_get_udp_sport): a connected QP whose path has a flow label (the one a CM REQ
            // carried) sends from the port it gives; without one, from the port of both QP numbers.
            int flowLabel = qp.av() != null ? qp.av().flowLabel() : 0;
            e.srcPort = qp.type() == QpType.UD ? RoceSourcePort.datagram(qp.qpn())
                    : flowLabel != 0 ? RoceSourcePort.ofFlowLabel(flowLabel)
                    : RoceSourcePort.connected(qp.qpn(), qp.destQpn());
            port.prepareSource(qp.type() == QpType.UD ? null : e.peer, e.srcPort);
        } else if (to == QpState.RTS && from == QpState.RTR) {
            e.resetSend(qp.sqPsn());
            window.update(e);
        } else if (to == QpState.RTS && from == QpState.SQD) {
            schedule(e);
        } else if (to == QpState.ERR && from != QpState.ERR) {
            flush(e);
        } else if (to == QpState.RESET) {
            e.resetReceive(0);
            e.resetSend(0);
            window.update(e);
        }
    }

    /**
     * Queues the QP's task on the NIC thread, once however often it is asked before it runs: the
     * doorbell (any thread), and every engine that left work for another (NIC thread).
     */
    void schedule(QpEngine e) {
        if (e.scheduled.compareAndSet(false, true)) {
            time.execute(e.task);
        }
    }

    /** post_recv on a QP in ERR: its receives are flushed right away. */
    void receivePosted(QpEngine e) {
        if (e.qp.state() == QpState.ERR) {
            time.execute(() -> flush(e));
        }
    }

    /**
     * The QP's task: the completer writes the completions of the WQEs marked done, the requester
     * sends, the responder sends the responses that wait, all from one budget of packets per turn;
     * again while the requester leaves completions behind (a local operation, a UC or UD message,
     * a send-side error), until the budget is spent, when the task queues itself again so that
     * receives and other QPs get their turn.
     */
    void runTask(QpEngine e) {
        trace(TraceEvent.TASK_RUN, e.qp.qpn(), 0, -1, -1, 0);
        try {
            int budget = PACKETS_PER_TURN;
            int requests = 0;
            do {
                if (e.comp.hasWork) {
                    e.comp.hasWork = false;
                    completer.drain(e);
                }
                int sent = requester.run(e, budget);
                requests += sent;
                budget -= sent;
                budget -= responder.sendPending(e, budget);
            } while (e.comp.hasWork && budget > 0);
            if (budget <= 0) {
                schedule(e);
            }
            if (requests > 0) {
                completer.armTimer(e); // requests went out: the local ACK timer runs until they are acknowledged
            }
        } catch (RuntimeException ex) {
            engineError("running QP " + e.qp.qpn(), ex);
        }
    }

    void retransmitTimerFired(QpEngine e) {
        try {
            completer.timerFired(e);
        } catch (RuntimeException ex) {
            engineError("handling the ACK timer of QP " + e.qp.qpn(), ex);
        }
    }

    void rnrTimerFired(QpEngine e) {
        long early = e.req.rnrResumeAt - time.nanoTime();
        if (early > 0) {
            // An RNR NAK read after the one that set this timer moved the resume time later (the later wait
            // wins, as rxe re-arms its rnr_nak_timer). Without waiting again, the requester found itself too
            // early, sent nothing, and no timer was left to wake it: the QP hung with work posted.
            time.schedule(early, e.rnrResume);
            return;
        }
        e.req.rnrTimerPending = false;
        schedule(e);
    }

    @Override
    public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
        try {
            receive(buffer, offset, length, info);
        } catch (RuntimeException e) {
            engineError("receiving a packet", e);
        }
    }

    /**
     * No exception may escape an engine: the NIC thread serves every QP. One that does is a jrxe
     * bug; it is counted and reported as a DEVICE_FATAL event with its text, and the NIC goes on.
     */
    void engineError(String during, RuntimeException e) {
        rnic.counters().increment(Counter.ENGINE_ERROR);
        rnic.events().post(new AsyncEvent(AsyncEventType.DEVICE_FATAL, 0, "jrxe bug while " + during + ": " + e));
    }

    // The packet being handled, so that a drop anywhere in the engines reaches the capture.
    private ByteBuffer rxBuffer;
    private int rxOffset;
    private int rxLength;
    private PacketInfo rxInfo;

    private void receive(ByteBuffer buffer, int offset, int length, PacketInfo info) {
        rxBuffer = buffer;
        rxOffset = offset;
        rxLength = length;
        rxInfo = info;
        try {
            dispatch(buffer, offset, length, info);
        } finally {
            rxBuffer = null;
        }
    }

    private void dispatch(ByteBuffer buffer, int offset, int length, PacketInfo info) {
        BthFlyweight bth = rxBth.wrap(buffer, offset);
        Opcode opcode = Opcode.of(bth.opcode());
        if (opcode == null) {
            drop(DropReason.UNKNOWN_OPCODE, -1, bth.psn(), bth.opcode());
            return;
        }
        if (bth.transportVersion() != 0) {
            // IBTA 9.2: TVer is 0; a packet of another transport version is not ours to read (rxe's hdr_check drops it).
            drop(DropReason.MALFORMED, bth.destQpn(), bth.psn(), bth.opcode());
            return;
        }
        int payloadAndPad = length - opcode.headerLength() - IcrcCalculator.LENGTH;
        if (payloadAndPad < 0 || (!opcode.hasPayload() && payloadAndPad != 0) || bth.padCount() > payloadAndPad) {
            drop(DropReason.MALFORMED, bth.destQpn(), bth.psn(), bth.opcode());
            return;
        }
        if (opcode.transport() == Transport.CNP) {
            return; // congestion notification: jrxe does no rate control, and a CNP needs no answer
        }
        if (bth.destQpn() == GSI_QPN) {
            gsi.receive(bth, opcode, buffer, offset, payloadAndPad - bth.padCount(), info);
            return;
        }
        if (bth.destQpn() == MulticastGid.QPN) {
            multicast.receive(bth, opcode, buffer, offset, length, payloadAndPad - bth.padCount(), info);
            return;
        }
        QpEngine e = engines.get(bth.destQpn());
        if (e == null) {
            drop(DropReason.UNKNOWN_QPN, bth.destQpn(), bth.psn(), bth.opcode());
            return;
        }
        DropReason refused = check(e, opcode, bth, buffer, offset, info);
        if (refused != null) {
            drop(refused, e.qp.qpn(), bth.psn(), bth.opcode());
            return;
        }
        QueuePair qp = e.qp;
        // Counted here, as rxe_rcv counts RCVD_PKTS: only packets that passed the header checks
        // (QP, transport, state, P_Key and Q_Key) and the ICRC; before, every datagram counted.
        rnic.counters().increment(Counter.RCVD_PKTS);
        int payloadOffset = offset + opcode.headerLength();
        int payloadLength = payloadAndPad - bth.padCount();
        trace(TraceEvent.PACKET_RECEIVED, qp.qpn(), 0, bth.psn(), bth.opcode(), length);
        if (opcode.isResponse()) {
            completer.response(e, opcode, buffer, offset, payloadOffset, payloadLength);
        } else {
            responder.request(e, opcode, buffer, offset, payloadOffset, payloadLength, info);
        }
    }

    /**
     * What a packet for QP {@code e} must pass before the QP sees it, as rxe's hdr_check: its transport, P_Key,
     * the QP's state, for RC and UC the peer's address, for UD the Q_Key. Null when it passes, else why not.
     */
    DropReason check(QpEngine e, Opcode opcode, BthFlyweight bth, ByteBuffer buffer, int offset, PacketInfo info) {
        QueuePair qp = e.qp;
        if (!transportMatches(opcode.transport(), qp.type())) {
            return DropReason.WRONG_TRANSPORT;
        }
        if ((bth.pkey() & 0x7FFF) != 0x7FFF) {
            return DropReason.BAD_PKEY;
        }
        QpState state = qp.state();
        if (state == QpState.RESET || state == QpState.INIT || state == QpState.ERR
                || (opcode.isResponse() && state == QpState.RTR)) {
            return DropReason.QP_STATE;
        }
        if (qp.type() != QpType.UD && !(e.peer != null && e.peer.sameIp(info.source) && e.local.sameIp(info.destination))) {
            // As rxe's check_addr: only the peer speaks for a connection. Without it, a third host that
            // guessed a PSN could write registered memory or acknowledge what the peer never received.
            return DropReason.WRONG_ADDRESS;
        }
        if (qp.type() == QpType.UD && rxDeth.wrap(buffer, offset + opcode.offsetOf(ExtensionHeader.DETH)).qkey() != qp.qkey()) {
            return DropReason.BAD_QKEY;
        }
        return null;
    }

    /** The engine of the QP with this number, or null. */
    QpEngine engine(int qpn) {
        return engines.get(qpn);
    }

    private static boolean transportMatches(Transport t, QpType type) {
        return switch (type) {
            case RC -> t == Transport.RC;
            case UC -> t == Transport.UC;
            case UD -> t == Transport.UD;
        };
    }

    // QPs that owe an ACK at the end of the receive burst, each listed once.
    private QpEngine[] acksOwed = new QpEngine[16];
    private int acksOwedCount;

    void ackOwed(QpEngine e) {
        if (!e.resp.ackListed) {
            e.resp.ackListed = true;
            if (acksOwedCount == acksOwed.length) {
                acksOwed = java.util.Arrays.copyOf(acksOwed, acksOwedCount * 2);
            }
            acksOwed[acksOwedCount++] = e;
        }
    }

    /** The end of a receive burst: every ACK owed goes out, one per QP. */
    @Override
    public void burstEnd() {
        for (int i = 0; i < acksOwedCount; i++) {
            QpEngine e = acksOwed[i];
            acksOwed[i] = null;
            e.resp.ackListed = false;
            try {
                responder.sendOwedAck(e);
            } catch (RuntimeException ex) {
                engineError("acknowledging for QP " + e.qp.qpn(), ex);
            }
        }
        acksOwedCount = 0;
    }

    @Override
    public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
        drop(reason, -1, -1, -1);
    }

    /** Counts a dropped packet; a capture, if one is on, records it with the reason as its comment. */
    void drop(DropReason why, int qpn, int psn, int opcode) {
        countDrop(why, qpn, psn, opcode);
        showDrop(why);
    }

    /** Counts a drop and traces it, for one QP of several that a packet was for (a multicast member). */
    void countDrop(DropReason why, int qpn, int psn, int opcode) {
        rnic.counters().increment(Counter.of(why));
        trace(TraceEvent.DROPPED, qpn, 0, psn, opcode, why.ordinal());
    }

    /** The capture, if one is on, records the packet being handled as dropped, with the reason as its comment. */
    void showDrop(DropReason why) {
        if (rxBuffer != null) {
            port.reportDrop(rxBuffer, rxOffset, rxLength, rxInfo, why);
        }
    }

    /** Sends tx[0, length) plus room for the ICRC to the QP's peer. */
    void send(QpEngine e, PeerAddress to, int lengthWithoutIcrc) {
        port.send(tx, 0, lengthWithoutIcrc + IcrcCalculator.LENGTH, to, e.srcPort);
        rnic.counters().increment(Counter.SENT_PKTS);
        if (to.multicast()) {
            rnic.counters().increment(Counter.MCAST_SENT_PKTS);
        }
    }

    /** Adds a completion, handling a full CQ as real devices do (CQ error, its QPs to error). */
    void complete(CompletionQueue cq, long wrId, WcStatus status, WcOpcode opcode, int vendorErr, long byteLen, int imm,
                  int qpn, int srcQp, int flags, boolean solicited) {
        int index = trace != null ? cq.nextIndex() : -1;
        boolean written = cq.push(wrId, status, opcode, vendorErr, (int) byteLen, imm, qpn, srcQp, flags, 0, solicited);
        if (!written) {
            rnic.cqOverflowed(cq, this::flushLater);
        }
        trace(TraceEvent.COMPLETED, qpn, wrId, -1, opcode.ordinal(), status.ordinal());
        trace(TraceEvent.CQE_WRITTEN, qpn, wrId, -1, -1, written ? index : -1);
    }

    /** A QP that went to the error state outside the engines (its CQ overflowed) is flushed on the NIC thread. */
    private void flushLater(QueuePair qp) {
        QpEngine e = engines.get(qp.qpn());
        if (e != null) {
            time.execute(() -> flush(e));
        }
    }

    /**
     * The QP goes to the error state: the send queue's and the receive queue's outstanding work
     * requests complete with WR_FLUSH_ERR, in order.
     */
    void error(QpEngine e, String reason) {
        error(e, AsyncEventType.QP_FATAL, reason);
    }

    /** As {@link #error(QpEngine, String)}, with the affiliated event verbs name for the cause. */
    void error(QpEngine e, AsyncEventType event, String reason) {
        QueuePair qp = e.qp;
        if (qp.state() != QpState.ERR) {
            qp.forceState(QpState.ERR);
            if (reason != null) {
                rnic.events().post(new AsyncEvent(event, qp.qpn(), reason));
            }
        }
        flush(e);
    }

    void flush(QpEngine e) {
        QueuePair qp = e.qp;
        WorkQueue<SendWqe> sq = qp.sendQueue();
        SendWqe w;
        while ((w = sq.peek()) != null) {
            complete(qp.sendCq(), w.wrId, WcStatus.WR_FLUSH_ERR, w.opcode.completion(), 0, 0, 0, qp.qpn(), 0, 0, false);
            sq.remove();
        }
        e.req.reqIndex = 0;
        e.req.outstandingReadsAtomics = 0;
        e.req.needRetry = false;
        e.comp.retransmitDeadline = Long.MAX_VALUE;
        e.comp.compPsn = e.req.psn;
        window.update(e);
        WorkQueue<ReceiveWqe> rq = qp.recvQueue();
        if (rq != null) {
            ReceiveWqe r;
            while ((r = rq.peek()) != null) {
                complete(qp.recvCq(), r.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, qp.qpn(), 0, 0, false);
                rq.remove();
            }
        }
        ResponderState resp = e.resp;
        if (resp.recvFromSrq && resp.recvWqe != null) {
            complete(qp.recvCq(), resp.recvWqe.wrId(), WcStatus.WR_FLUSH_ERR, WcOpcode.RECV, 0, 0, 0, qp.qpn(), 0, 0, false);
        }
        resp.recvWqe = null;
        resp.inMessage = MessageInProgress.NONE;
    }
}
