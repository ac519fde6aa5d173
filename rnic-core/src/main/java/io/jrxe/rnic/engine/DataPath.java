package io.jrxe.rnic.engine;

import io.jrxe.rnic.NicResources;
import io.jrxe.rnic.cc.CongestionControl;
import io.jrxe.rnic.cc.RateStep;
import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.verbs.AsyncEvent;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.MulticastGid;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.opcode.Transport;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PacketSink;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.RoceSourcePort;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;

/**
 * The engines of one NIC and what joins them: the receive dispatch (each packet parsed once into an
 * {@link RxPacket}, checked, then handed to the responder for requests, the completer for responses,
 * QP1 or the multicast receiver), each QP's task (completer, requester, waiting responses), the error
 * flush and the QPs' engine state. Each engine is given only the parts it uses (the tables, the
 * transmitter, the DMA engine, the completion writer, the drops, the clock, congestion control) and
 * asks the data path for nothing but its {@link QpControl}. Everything here runs on the NIC thread;
 * the {@link io.jrxe.rnic.Nic} that owns it attaches, notifies and detaches the QPs.
 */
public final class DataPath implements PacketSink, QpControl {
    /** A QP's task sends at most this many packets per turn, so that receives and other QPs get theirs. */
    static final int PACKETS_PER_TURN = 64;
    private static final int GSI_QPN = MadHeaderFlyweight.GSI_QPN;

    final NicResources resources;
    private final Counters counters;
    private final PacketPort port;
    private final NicTime time;
    private final CongestionControl congestionControl;
    private final Tracer tracer = new Tracer();
    private final Drops drops;
    private final QpTable engines = new QpTable();
    private final HeaderCheck headers = new HeaderCheck();
    private final RxPacket rx = new RxPacket();
    private final Requester requester;
    private final Completer completer;
    private final Responder responder;
    private final ReceiveConsumer receives;
    private final GsiQp gsi;
    private final MulticastReceiver multicast;
    private final NotificationPoint notificationPoint;

    public DataPath(NicResources resources, PacketPort port, NicTime time, CongestionControl congestionControl,
                    CounterRegistry registry) {
        this.resources = resources;
        this.counters = resources.counters();
        this.port = port;
        this.time = time;
        this.congestionControl = congestionControl;
        congestionControl.reportRateChanges((qpn, why, bitsPerSecond) -> {
            tracer.trace(TraceEvent.RATE_CHANGED, qpn, 0, -1, why.ordinal(), bitsPerSecond);
            noteRateChange(qpn, why, bitsPerSecond);
        });
        this.drops = new Drops(counters, tracer, port);
        Dma dma = new Dma(resources.memory(), tracer);
        Transmitter out = new Transmitter(port, counters);
        this.notificationPoint = new NotificationPoint(out, time, counters, resources.config().cnpIntervalNanos());
        CompletionWriter completions = new CompletionWriter(resources, tracer, this);
        this.receives = new ReceiveConsumer(dma, completions, counters, resources.events());
        this.requester = new Requester(resources, out, dma, time, tracer);
        this.completer = new Completer(counters, tracer, drops, dma, time, completions, this);
        this.responder = new Responder(resources.memory(), counters, drops, dma, this,
                new ResponseSender(out, dma, counters, this), receives,
                new DatagramReceiver(resources.port(), drops, dma, receives));
        this.gsi = new GsiQp(resources.port(), port, counters, drops);
        this.multicast = new MulticastReceiver(resources.multicast(), counters, drops, tracer, engines, headers, responder);
        gsi.counters().registerIn(registry);
        port.registerCounters(registry);
        port.receiver(this);
    }

    /**
     * While a capture is on, a QP's rate change is told in the comment of the QP's next packet (the rate now and why),
     * so that the capture shows where each change took effect; without one nothing is built.
     */
    private void noteRateChange(int qpn, RateStep why, long bitsPerSecond) {
        if (port.tap() == null) {
            return;
        }
        QpEngine e = engines.get(qpn);
        if (e != null) {
            e.rateNote = String.format("rate %.3f Gbit/s: %s", bitsPerSecond / 1e9, why.why);
        }
    }

    /** Installs the listener of the engines' trace events; null removes it. */
    public void trace(TraceListener listener) {
        tracer.install(listener);
    }

    /** Whether a listener is installed: callers check it before computing what only a trace needs. */
    boolean tracing() {
        return tracer.tracing();
    }

    void trace(TraceEvent event, int qpn, long wrId, int psn, int opcode, long value) {
        tracer.trace(event, qpn, wrId, psn, opcode, value);
    }

    /** The port's GSI QP (QP1), where management agents (the CM) register and send. */
    public GsiQp gsi() {
        return gsi;
    }

    // ---- a QP's life, driven by the Nic ----

    /** Attaches a new QP's engines (on the NIC thread, after create_qp); the handle is its doorbell. */
    public QpHandle attach(QueuePair qp) {
        QpEngine e = new QpEngine(qp, this, congestionControl);
        engines.put(qp.qpn(), e);
        return e.handle;
    }

    /** Detaches a destroyed QP's engines: it answers nothing more and holds nothing in flight. */
    public void detach(QueuePair qp) {
        QpEngine e = engines.get(qp.qpn());
        if (e != null) {
            responder.detach(e);
            completer.detach(e);
            releaseSource(e);
        }
        engines.remove(qp.qpn());
    }

    /** The handle of the QP with this number, or null. */
    public QpHandle handle(int qpn) {
        QpEngine e = engines.get(qpn);
        return e == null ? null : e.handle;
    }

    /**
     * After every successful modify-QP: entering RTR sets the responder's expected PSN and the peer,
     * entering RTS the requester's and completer's PSNs; entering ERR flushes; RESET forgets.
     */
    public void modified(QueuePair qp, QpState from) {
        QpEngine e = engines.get(qp.qpn());
        if (e == null) {
            return;
        }
        QpState to = qp.state();
        if (to == QpState.RTR && from != QpState.RTR) {
            responder.reset(e, qp.rqPsn());
            if (qp.av() != null) {
                e.peer = PeerAddress.ofGid(qp.av().dgid());
                e.local = PeerAddress.ofGid(resources.port().gid(qp.av().sgidIndex()).gid());
            }
            // As rxe (rdma_get_udp_sport): a connected QP whose path has a flow label (the one a CM REQ
            // carried) sends from the port it gives; without one, from the port of both QP numbers.
            int flowLabel = qp.av() != null ? qp.av().flowLabel() : 0;
            e.srcPort = qp.type() == QpType.UD ? RoceSourcePort.datagram(qp.qpn())
                    : flowLabel != 0 ? RoceSourcePort.ofFlowLabel(flowLabel)
                    : RoceSourcePort.connected(qp.qpn(), qp.destQpn());
            releaseSource(e);
            e.preparedPeer = qp.type() == QpType.UD ? null : e.peer;
            e.preparedSrcPort = e.srcPort;
            port.prepareSource(e.preparedPeer, e.srcPort);
        } else if (to == QpState.RTS && from == QpState.RTR) {
            resetSend(e, qp.sqPsn());
        } else if (to == QpState.RTS && from == QpState.SQD) {
            schedule(e);
        } else if (to == QpState.ERR && from != QpState.ERR) {
            flush(e);
        } else if (to == QpState.RESET) {
            responder.reset(e, 0);
            resetSend(e, 0);
            releaseSource(e);
        }
    }

    /** The QP no longer sends from the source port it prepared (if it did). */
    private void releaseSource(QpEngine e) {
        if (e.preparedSrcPort >= 0) {
            port.releaseSource(e.preparedPeer, e.preparedSrcPort);
            e.preparedSrcPort = -1;
            e.preparedPeer = null;
        }
    }

    private void resetSend(QpEngine e, int sqPsn) {
        completer.reset(e, sqPsn);
        requester.reset(e, sqPsn);
        e.recountInFlight();
    }

    // ---- the QP's task ----

    @Override
    public void schedule(QpEngine e) {
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
        tracer.trace(TraceEvent.TASK_RUN, e.qp.qpn(), 0, -1, -1, 0);
        try {
            if (e.qp.state() == QpState.ERR) {
                // It went to ERR outside the engines (its CQ overflowed): what is done completes as it is, the rest flushes.
                completer.drain(e);
                flush(e);
                return;
            }
            int budget = PACKETS_PER_TURN;
            int requests = 0;
            do {
                completer.drain(e);
                int sent = requester.run(e, budget);
                requests += sent;
                budget -= sent;
                budget -= responder.sendPending(e, budget);
            } while (e.completionDue() && budget > 0);
            if (budget <= 0) {
                schedule(e);
            }
            if (requests > 0) {
                completer.armTimer(e); // requests went out: the local ACK timer runs until they are acknowledged
            }
        } catch (RuntimeException ex) {
            engineError("running QP " + e.qp.qpn(), ex);
        } finally {
            e.flow.turnEnded();
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
        completer.rnrTimerFired(e);
    }

    @Override
    public void engineError(String during, RuntimeException e) {
        counters.increment(Counter.ENGINE_ERROR);
        resources.events().post(new AsyncEvent(AsyncEventType.DEVICE_FATAL, 0, "jrxe bug while " + during + ": " + e));
    }

    // ---- errors ----

    @Override
    public void error(QpEngine e, AsyncEventType event, String reason) {
        QueuePair qp = e.qp;
        if (qp.state() != QpState.ERR) {
            qp.forceState(QpState.ERR);
            if (reason != null) {
                resources.events().post(new AsyncEvent(event, qp.qpn(), reason));
            }
        }
        flush(e);
    }

    @Override
    public void flushLater(QueuePair qp) {
        QpEngine e = engines.get(qp.qpn());
        if (e != null) {
            time.execute(() -> flush(e));
        }
    }

    /** The QP is in the error state: every engine lets go of its work, the outstanding WQEs complete with WR_FLUSH_ERR. */
    private void flush(QpEngine e) {
        completer.flush(e);
        requester.flushed(e);
        responder.flush(e);
    }

    // ---- receiving ----

    @Override
    public void packet(ByteBuffer buffer, int offset, int length, PacketInfo info) {
        RxPacket p = rx;
        drops.handling(p);
        try {
            dispatch(p, buffer, offset, length, info);
        } catch (RuntimeException e) {
            engineError("receiving a packet", e);
        } finally {
            drops.handling(null);
        }
    }

    private void dispatch(RxPacket p, ByteBuffer buffer, int offset, int length, PacketInfo info) {
        DropReason malformed = p.parse(buffer, offset, length, info);
        if (malformed != null) {
            drops.drop(malformed, malformed == DropReason.UNKNOWN_OPCODE ? -1 : p.destQpn, p);
            return;
        }
        if (p.opcode.transport() == Transport.CNP) {
            congestionNotified(p);
            return;
        }
        if (p.destQpn == GSI_QPN) {
            gsi.receive(p);
            return;
        }
        if (p.destQpn == MulticastGid.QPN) {
            multicast.receive(p);
            return;
        }
        QpEngine e = engines.get(p.destQpn);
        if (e == null) {
            drops.drop(DropReason.UNKNOWN_QPN, p.destQpn, p);
            return;
        }
        DropReason refused = headers.check(e, p);
        if (refused != null) {
            drops.drop(refused, e.qp.qpn(), p);
            return;
        }
        // Counted here, as rxe_rcv counts RCVD_PKTS: only packets that passed the header checks
        // (QP, transport, state, P_Key and Q_Key) and the ICRC.
        counters.increment(Counter.RCVD_PKTS);
        counters.add(Counter.RCVD_BYTES, Counter.ipPacketLength(p.length, info.source.ipv6()));
        if ((info.trafficClass & ECN_MASK) == ECN_CE) {
            counters.increment(Counter.RCVD_ECN_CE);
            e.flow.congestionExperienced();
            notificationPoint.marked(e);
        }
        tracer.trace(TraceEvent.PACKET_RECEIVED, e.qp.qpn(), 0, p.psn, p.opcodeValue, length);
        if (p.opcode.isResponse()) {
            completer.response(e, p);
        } else {
            responder.request(e, p);
        }
    }

    /** The IP header's two ECN bits, and the value a congested switch sets them to (RFC 3168). */
    private static final int ECN_MASK = 0x3;
    private static final int ECN_CE = 0x3;

    /** A CNP names the QP whose packets were marked (the destination QP of its BTH): its congestion control hears of it. */
    private void congestionNotified(RxPacket p) {
        QpEngine e = engines.get(p.destQpn);
        if (e == null) {
            drops.drop(DropReason.UNKNOWN_QPN, p.destQpn, p);
            return;
        }
        counters.increment(Counter.RCVD_CNP);
        e.flow.congestionNotified();
    }

    /** The end of a receive burst: every ACK owed goes out, one per QP. */
    @Override
    public void burstEnd() {
        responder.burstEnd();
    }

    @Override
    public void dropped(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
        counters.increment(Counter.of(reason));
        tracer.trace(TraceEvent.DROPPED, -1, 0, -1, -1, reason.ordinal());
    }
}
