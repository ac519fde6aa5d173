package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.rnic.queue.WqeState;
import io.jrxe.rnic.queue.WrOpcodeInfo;
import io.jrxe.verbs.AsyncEventType;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RnrTimer;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.psn.LocalAckTimeout;
import io.jrxe.wire.psn.Psn;
import io.jrxe.wire.time.NicTime;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The completer: turns ACKs, NAKs, READ responses and atomic ACKs into completions, in order, and
 * is the one writer of send completions. A later ACK or response acknowledges every earlier PSN; a
 * PSN sequence NAK, an implied NAK (a READ response beyond the expected PSN) or the local ACK
 * timeout asks the requester to go back (go-back-N, resuming a READ in the middle of its response)
 * and costs one of retry_cnt; an RNR NAK waits its timer and costs one of rnr_retry (7: forever);
 * any other NAK fails the work request and moves the QP to the error state.
 * <p>
 * On a response it only marks: WQEs done, the acknowledged PSN, a retry or an RNR wait asked for
 * in its own state (the requester's hand-offs); then it schedules the QP's task, which writes the
 * completions ({@link #drain}) and runs the requester. It never sends and never runs the requester
 * (rxe's completer hands off the same way). It walks the send queue from its head to where the
 * requester is, oldest first, as rxe's completer does.
 */
final class Completer {
    private final Counters counters;
    private final Tracer tracer;
    private final Drops drops;
    private final Dma dma;
    private final NicTime time;
    private final CompletionWriter completions;
    private final QpControl control;
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();
    private final ByteBuffer scratch8 = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
    // The walk's position: from the send queue's head to the requester's WQE (see head and next).
    private long walk;
    private long walkEnd;

    Completer(Counters counters, Tracer tracer, Drops drops, Dma dma, NicTime time, CompletionWriter completions,
              QpControl control) {
        this.counters = counters;
        this.tracer = tracer;
        this.drops = drops;
        this.dma = dma;
        this.time = time;
        this.completions = completions;
        this.control = control;
    }

    /** The QP entered RTS (or RESET): nothing acknowledged before sqPsn, every retry left. */
    void reset(QpEngine e, int sqPsn) {
        e.comp.reset(sqPsn, e.qp.retryCnt(), e.qp.rnrRetry());
    }

    void response(QpEngine e, RxPacket p) {
        Opcode op = p.opcode;
        int psn = p.psn;
        QueuePair qp = e.qp;
        int syndrome = AethSyndrome.ack(AethSyndrome.CREDITS_INVALID);
        if (op.has(ExtensionHeader.AETH)) {
            syndrome = aeth.wrap(p.buffer, p.at(ExtensionHeader.AETH)).syndrome();
        }
        if ((!e.outstanding() || !Psn.before(psn, e.req.psn)) && !rnrNakDuringItsWait(e, op, psn, syndrome)) {
            if (!answersBeforeRewind(e, op, psn, syndrome)) {
                // A response with nothing outstanding, or for a PSN never sent, changes nothing.
                drops.drop(DropReason.GHOST_ACK, qp.qpn(), p);
                return;
            }
            // An ACK for packets sent before a go-back-N rewind, late rather than lost: the responder has
            // everything through psn, so what the requester has sent again since is acknowledged. Dropped, it
            // would leave the QP to time out again while the responder answers only duplicates: under load
            // (a queue longer than the timeout) every QP would retry until retry_cnt runs out.
            psn = Psn.add(e.req.psn, -1);
        }
        if (op.operation() == Operation.RDMA_READ_RESPONSE && answersPlacement(e, op, psn, p.payloadLength)) {
            ack(e, psn, syndrome); // a FLUSH's or ATOMIC WRITE's response acknowledges it as an ACK would
        } else if (op.operation() == Operation.RDMA_READ_RESPONSE) {
            readResponse(e, p);
        } else if (op.operation() == Operation.ATOMIC_ACKNOWLEDGE) {
            atomicAck(e, psn, p.buffer, p.at(ExtensionHeader.ATOMIC_ACK_ETH));
        } else {
            ack(e, psn, syndrome);
        }
        // What the response decided (WQEs done, a retry, room in the windows) is carried out by the QP's task.
        control.schedule(e);
    }

    // ---- the walk: the WQEs from the send queue's head to the one the requester is at, oldest first ----

    private SendWqe head(QpEngine e) {
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        walk = sq.consumed();
        walkEnd = Math.max(walk, e.req.next);
        return sq.at(walk);
    }

    private SendWqe next(QpEngine e) {
        return ++walk > walkEnd ? null : e.qp.sendQueue().at(walk);
    }

    /** The WQE (sent, not done) whose PSN range holds psn. */
    private SendWqe wqeAt(QpEngine e, int psn) {
        for (SendWqe w = head(e); w != null && w.state != WqeState.POSTED; w = next(e)) {
            if (w.state != WqeState.DONE && !Psn.before(psn, w.firstPsn) && !Psn.after(psn, w.lastPsn)) {
                return w;
            }
        }
        return null;
    }

    /**
     * Another RNR NAK for the PSN the RNR wait under way is for (a NAK duplicated, or the responder's and a third
     * party's): rxe's completer takes it as it took the first, counts it and re-arms its rnr_nak_timer, so the later
     * wait wins whether or not the requester ran in between. The requester's rewind to that PSN made it look unsent and
     * the QP idle. Only that PSN: a NAK that acknowledged more would move the completer past the rewound requester.
     */
    private boolean rnrNakDuringItsWait(QpEngine e, Opcode op, int psn, int syndrome) {
        return op == Opcode.RC_ACKNOWLEDGE && AethSyndrome.type(syndrome) == AethSyndrome.TYPE_RNR_NAK
                && e.comp.rnrTimerPending && psn == e.comp.compPsn && Psn.before(psn, e.req.sentHighWater);
    }

    /**
     * A plain ACK at or beyond the requester's PSN, for a PSN it sent before it went back: never with nothing
     * outstanding.
     */
    private static boolean answersBeforeRewind(QpEngine e, Opcode op, int psn, int syndrome) {
        return op == Opcode.RC_ACKNOWLEDGE && AethSyndrome.type(syndrome) == AethSyndrome.TYPE_ACK
                && Psn.before(psn, e.req.sentHighWater) && Psn.after(e.req.psn, e.comp.compPsn);
    }

    /**
     * A zero-length RDMA READ response ONLY at the PSN of a FLUSH or ATOMIC WRITE: how rxe (and
     * the memory placement extensions) answer those; taken for a READ's response, it would fail
     * the work request with BAD_RESP_ERR.
     */
    private boolean answersPlacement(QpEngine e, Opcode op, int psn, int payloadLength) {
        if (op != Opcode.RC_RDMA_READ_RESPONSE_ONLY || payloadLength != 0) {
            return false;
        }
        SendWqe w = wqeAt(e, psn);
        return w != null && (w.opcode == WrOpcode.FLUSH || w.opcode == WrOpcode.ATOMIC_WRITE);
    }

    private void ack(QpEngine e, int psn, int syndrome) {
        QueuePair qp = e.qp;
        CompleterState comp = e.comp;
        if (AethSyndrome.type(syndrome) != AethSyndrome.TYPE_ACK && Psn.before(psn, comp.compPsn)) {
            // A NAK for a PSN that is acknowledged already is stale: the request it names arrived late and was
            // executed and answered. Retrying from there would find no WQE to resend, yet stop the ACK timer, so
            // the requests after it that the responder dropped would never be sent again.
            return;
        }
        switch (AethSyndrome.type(syndrome)) {
            case AethSyndrome.TYPE_ACK -> {
                if (Psn.before(psn, comp.compPsn) && Psn.diff(comp.compPsn, psn) > 1) {
                    return; // duplicate ACK
                }
                tracer.trace(TraceEvent.ACK_RECEIVED, qp.qpn(), 0, psn, -1, syndrome);
                acknowledgeThrough(e, psn);
            }
            case AethSyndrome.TYPE_RNR_NAK -> {
                tracer.trace(TraceEvent.NAK_RECEIVED, qp.qpn(), 0, psn, -1, syndrome);
                counters.increment(Counter.RCVD_RNR_ERR);
                acknowledgeThrough(e, Psn.add(psn, -1));
                if (qp.state() != QpState.RTS) {
                    return;
                }
                if (comp.rnrRetryLeft == 0) {
                    counters.increment(Counter.RETRY_RNR_EXCEEDED_ERR);
                    failFront(e, WcStatus.RNR_RETRY_EXC_ERR, 0);
                    return;
                }
                if (qp.rnrRetry() != 7) {
                    comp.rnrRetryLeft--;
                }
                askRetry(e, retryPoint(e, psn), RetryCause.RNR_NAK, qp.rnrRetry() == 7 ? 0 : qp.rnrRetry() - comp.rnrRetryLeft);
                long wait = RnrTimer.nanos(AethSyndrome.value(syndrome));
                comp.rnrResumeAt = time.nanoTime() + wait;
                comp.retransmitDeadline = Long.MAX_VALUE;
                if (!comp.rnrTimerPending) {
                    comp.rnrTimerPending = true;
                    time.schedule(wait, e.rnrResume);
                }
            }
            case AethSyndrome.TYPE_NAK -> {
                tracer.trace(TraceEvent.NAK_RECEIVED, qp.qpn(), 0, psn, -1, syndrome);
                NakCode code = NakCode.of(AethSyndrome.value(syndrome));
                if (code == NakCode.PSN_SEQUENCE_ERROR) {
                    counters.increment(Counter.RCVD_SEQ_ERR);
                    acknowledgeThrough(e, Psn.add(psn, -1));
                    if (qp.state() == QpState.RTS && e.outstanding()) {
                        retry(e, retryPoint(e, psn), RetryCause.SEQUENCE_NAK);
                    }
                    return;
                }
                acknowledgeThrough(e, Psn.add(psn, -1));
                // A NAK code IBTA reserves is a remote operational error, as rxe's completer reports it.
                WcStatus status = code == null ? WcStatus.REM_OP_ERR : switch (code) {
                    case INVALID_REQUEST -> WcStatus.REM_INV_REQ_ERR;
                    case REMOTE_ACCESS_ERROR -> WcStatus.REM_ACCESS_ERR;
                    case REMOTE_OPERATIONAL_ERROR -> WcStatus.REM_OP_ERR;
                    case INVALID_RD_REQUEST -> WcStatus.REM_INV_RD_REQ_ERR;
                    case PSN_SEQUENCE_ERROR -> throw new IllegalStateException();
                };
                failFront(e, status, AethSyndrome.value(syndrome));
            }
            default -> failFront(e, WcStatus.BAD_RESP_ERR, syndrome);
        }
    }

    /**
     * Where a NAK's retry starts, once acknowledgeThrough has taken what the NAK acknowledges: at its PSN, unless the
     * oldest WQE still waiting is a READ or atomic that began before it, which still owes responses: then at compPsn,
     * where those stopped (an implied NAK). Resumed at a NAK's PSN inside a READ (an RNR NAK a peer's faults made of
     * the ACK a responder sends again for a duplicate, whose PSN is the READ's last), the READ's answer would start
     * past responses not yet in, and resume points would no longer only move forward.
     */
    private int retryPoint(QpEngine e, int psn) {
        for (SendWqe w = head(e); w != null && w.state != WqeState.POSTED; w = next(e)) {
            if (w.state != WqeState.DONE) {
                return w.info.readOrAtomic() && Psn.before(w.firstPsn, psn) ? e.comp.compPsn : psn;
            }
        }
        return psn;
    }

    /** Every WQE whose packets all lie at or before psn is acknowledged (READs and atomics need their responses). */
    private void acknowledgeThrough(QpEngine e, int psn) {
        boolean progress = false;
        boolean impliedNak = false;
        int through = psn;
        for (SendWqe w = head(e); w != null && w.state != WqeState.POSTED; w = next(e)) {
            if (w.state == WqeState.DONE) {
                continue;
            }
            if (Psn.after(w.firstPsn, psn)) {
                break;
            }
            if (w.info.readOrAtomic()) {
                // An ACK acknowledges none of a READ's or atomic's PSNs, only its responses do: an ACK inside
                // its range (a responder re-acknowledging a duplicate) must not move compPsn past it, or its
                // responses would be dropped as ghosts and the QP would stall. One beyond it means its response
                // was lost (implied NAK), once the WQEs before it are acknowledged.
                if (!Psn.before(through, w.firstPsn)) {
                    through = Psn.add(w.firstPsn, -1);
                }
                impliedNak = Psn.after(psn, w.lastPsn);
                break;
            }
            if (!Psn.after(w.lastPsn, psn) && w.state == WqeState.SENT) {
                w.state = WqeState.DONE;
                progress = true;
            } else {
                break;
            }
        }
        CompleterState comp = e.comp;
        if (Psn.after(Psn.add(through, 1), comp.compPsn)) {
            advanceTo(e, Psn.add(through, 1));
            e.recountInFlight();
            progress = true;
        }
        if (progress) {
            madeProgress(e);
        }
        if (impliedNak && e.qp.state() == QpState.RTS) {
            retry(e, comp.compPsn, RetryCause.IMPLIED_NAK);
        }
    }

    private void readResponse(QpEngine e, RxPacket p) {
        QueuePair qp = e.qp;
        CompleterState comp = e.comp;
        Opcode op = p.opcode;
        int psn = p.psn;
        if (Psn.before(psn, comp.compPsn)) {
            return; // duplicate response
        }
        if (psn != comp.compPsn && !acknowledgesTheGap(e, psn)) {
            retry(e, comp.compPsn, RetryCause.IMPLIED_NAK); // implied NAK: a response went missing
            return;
        }
        SendWqe w = wqeAt(e, psn);
        if (w == null || w.opcode != WrOpcode.RDMA_READ) {
            failFront(e, WcStatus.BAD_RESP_ERR, op.code());
            return;
        }
        int mtu = Requester.mtu(qp);
        long offset = (long) Psn.distance(w.firstPsn, psn) * mtu;
        long expected = Math.min(mtu, w.length() - offset);
        boolean last = psn == w.lastPsn;
        // A READ resumed at responseStartPsn is answered from there with a FIRST (or ONLY) packet, but the
        // responses to the earlier request, still in flight, carry the same PSNs as MIDDLE or LAST, and the
        // same bytes: both are right. (Resume points only move forward, and older ones are behind compPsn.)
        boolean startOk = op.position().starts() ? psn == w.firstPsn || psn == w.responseStartPsn : psn != w.firstPsn;
        boolean positionOk = startOk && op.position().ends() == last;
        if (!positionOk || p.payloadLength != expected) {
            failFront(e, WcStatus.BAD_RESP_ERR, op.code());
            return;
        }
        acknowledgeBefore(e, w);
        if (p.payloadLength > 0) {
            AccessError err = dma.scatter(qp.pd(), w.sgl, offset, p.buffer, p.payloadOffset, p.payloadLength);
            if (err != AccessError.NONE) {
                failFront(e, WcStatus.LOC_PROT_ERR, err.code());
                return;
            }
        }
        advanceTo(e, Psn.next(psn));
        e.recountInFlight();
        if (last) {
            w.state = WqeState.DONE;
        }
        madeProgress(e);
    }

    private void atomicAck(QpEngine e, int psn, ByteBuffer buf, int at) {
        CompleterState comp = e.comp;
        if (Psn.before(psn, comp.compPsn)) {
            return;
        }
        if (psn != comp.compPsn && !acknowledgesTheGap(e, psn)) {
            retry(e, comp.compPsn, RetryCause.IMPLIED_NAK);
            return;
        }
        SendWqe w = wqeAt(e, psn);
        if (w == null || (w.opcode != WrOpcode.ATOMIC_CMP_AND_SWP && w.opcode != WrOpcode.ATOMIC_FETCH_AND_ADD)) {
            failFront(e, WcStatus.BAD_RESP_ERR, Opcode.RC_ATOMIC_ACKNOWLEDGE.code());
            return;
        }
        acknowledgeBefore(e, w);
        scratch8.putLong(0, atomicAck.wrap(buf, at).originalData());
        AccessError err = dma.scatter(e.qp.pd(), w.sgl, 0, scratch8, 0, 8);
        if (err != AccessError.NONE) {
            failFront(e, WcStatus.LOC_PROT_ERR, err.code());
            return;
        }
        advanceTo(e, Psn.next(psn));
        e.recountInFlight();
        w.state = WqeState.DONE;
        madeProgress(e);
    }

    /**
     * A response beyond compPsn that starts the answer of a READ or atomic, with only SENDs and
     * WRITEs (or the like) waiting before it: it acknowledges them (IBTA 9.7.5.1; rxe's check_psn
     * completes the older WQEs), so the gap is their lost ACK, not a lost response, and nothing
     * needs to be sent again. On true, compPsn has moved up to psn.
     */
    private boolean acknowledgesTheGap(QpEngine e, int psn) {
        SendWqe target = wqeAt(e, psn);
        // At the target's first PSN only: a resumed answer's start beyond compPsn leaves the target's own earlier
        // responses in the gap, which nothing acknowledges.
        if (target == null || psn != target.firstPsn || Psn.before(psn, e.comp.compPsn)) {
            return false;
        }
        for (SendWqe w = head(e); w != null && w != target; w = next(e)) {
            if (w.state != WqeState.DONE && (w.state != WqeState.SENT || w.info.readOrAtomic())) {
                return false;
            }
        }
        advanceTo(e, psn);
        return true;
    }

    /** A response for target implicitly acknowledges the SENDs and WRITEs before it. */
    private void acknowledgeBefore(QpEngine e, SendWqe target) {
        for (SendWqe w = head(e); w != null && w != target; w = next(e)) {
            if (w.state == WqeState.SENT && !w.info.readOrAtomic()) {
                w.state = WqeState.DONE;
            }
        }
    }

    /**
     * Fails the oldest outstanding WQE with this status: writing its completion moves the QP to
     * the error state (in {@link #drain}). With none outstanding, the QP goes to the error state now.
     */
    private void failFront(QpEngine e, WcStatus status, int vendorErr) {
        for (SendWqe w = head(e); w != null; w = next(e)) {
            if (w.state != WqeState.DONE) {
                w.finish(status, vendorErr);
                return;
            }
        }
        if (e.qp.state() != QpState.ERR) {
            control.error(e, AsyncEventType.QP_FATAL, null);
        }
    }

    /**
     * The peer has every packet before nextPsn: the congestion-control part hears how many that was,
     * and the round trip of the QP's timed packet if this answers it.
     */
    private void advanceTo(QpEngine e, int nextPsn) {
        if (e.rtt.answeredBy(nextPsn)) {
            e.flow.roundTripMeasured(e.rtt.end(time.nanoTime()));
        }
        e.flow.acknowledged(Psn.distance(e.comp.compPsn, nextPsn));
        e.comp.compPsn = nextPsn;
    }

    /** Something was acknowledged: retries counted afresh, the ACK timer restarted. */
    private void madeProgress(QpEngine e) {
        CompleterState comp = e.comp;
        comp.retryStarted = false;
        comp.retryLeft = e.qp.retryCnt();
        comp.rnrRetryLeft = e.qp.rnrRetry();
        comp.retransmitDeadline = e.outstanding() ? time.nanoTime() + timeout(e) : Long.MAX_VALUE;
        comp.retransmitDeadlineStretched = false;
    }

    /** The local ACK timeout of a QP, in nanoseconds (infinite for timeout 0). */
    private static long ackTimeout(QueuePair qp) {
        return LocalAckTimeout.nanos(qp.timeout());
    }

    /**
     * The local ACK timeout, stretched by up to a half at random: when many QPs lose packets to
     * one overflowing receive buffer, their retransmissions spread out instead of overflowing it
     * again all at once. (IBTA sets the timeout's floor, not its exact value.)
     */
    private static long timeout(QpEngine e) {
        long t = ackTimeout(e.qp);
        if (t == Long.MAX_VALUE) {
            return t;
        }
        long x = e.comp.timerJitter;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        e.comp.timerJitter = x;
        return t + ((x >>> 1) % (t / 2 + 1));
    }

    /** The requester sent packets: on RC, make sure the local ACK timer runs. */
    void armTimer(QpEngine e) {
        long timeout = ackTimeout(e.qp);
        if (timeout == Long.MAX_VALUE || e.qp.type() != QpType.RC) {
            return;
        }
        CompleterState comp = e.comp;
        if (comp.retransmitDeadline == Long.MAX_VALUE) {
            comp.retransmitDeadline = time.nanoTime() + timeout(e);
            comp.retransmitDeadlineStretched = false;
        }
        if (!comp.retransmitTimerPending) {
            scheduleTimer(e, time.nanoTime());
        }
    }

    private void scheduleTimer(QpEngine e, long now) {
        CompleterState comp = e.comp;
        comp.retransmitTimerPending = true;
        comp.retransmitTimerDue = comp.retransmitDeadline;
        time.schedule(comp.retransmitDeadline - now, e.retransmitCheck);
    }

    /**
     * The ACK timer: a deadline that passed with packets outstanding is a retry; an early firing waits again.
     * A timer that fires late by more than the clock's granularity found a NIC thread that could not run at the
     * deadline (a garbage collector's pause, a descheduled process): ACKs that came meanwhile wait unread in its
     * socket, and a retry now would resend what the peer has, for every QP whose deadline fell in the pause (a
     * window's worth of QPs at once, the NIC's whole in-flight cap). So the time it was held up, up to one more
     * timeout, is not counted: the deadline moves on by it, once, and the ACKs are read first. IBTA's timeout is
     * a least time before a retry, so a retry that is due comes that much later and no earlier.
     */
    void timerFired(QpEngine e) {
        CompleterState comp = e.comp;
        comp.retransmitTimerPending = false;
        if (e.qp.state() != QpState.RTS || !e.outstanding() || comp.retransmitDeadline == Long.MAX_VALUE) {
            return;
        }
        long now = time.nanoTime();
        long heldUp = now - comp.retransmitTimerDue - time.timerGranularityNanos();
        if (now >= comp.retransmitDeadline && heldUp > 0 && !comp.retransmitDeadlineStretched) {
            comp.retransmitDeadlineStretched = true;
            comp.retransmitDeadline = now + Math.min(heldUp, ackTimeout(e.qp));
            counters.increment(Counter.ACK_TIMER_HELD_UP);
        }
        if (now < comp.retransmitDeadline) {
            scheduleTimer(e, now);
            return;
        }
        if (now < comp.rnrResumeAt) {
            return;
        }
        retryNow(e, comp.compPsn, RetryCause.ACK_TIMEOUT);
    }

    /**
     * The RNR timer: the requester may send again. An RNR NAK read after the one that set this timer
     * moved the resume time later (the later wait wins, as rxe re-arms its rnr_nak_timer): a timer that
     * fires before it waits again, for with no timer left the QP would hang with work posted.
     */
    void rnrTimerFired(QpEngine e) {
        CompleterState comp = e.comp;
        long early = comp.rnrResumeAt - time.nanoTime();
        if (early > 0) {
            time.schedule(early, e.rnrResume);
            return;
        }
        comp.rnrTimerPending = false;
        control.schedule(e);
    }

    /**
     * A NAK or an implied NAK asks to go back to psn. Only the first one starts a retry until
     * something is acknowledged again: every READ response after a lost one is an implied NAK,
     * and retrying for each would resend the READ many times and spend all of retry_cnt on one
     * lost packet. Later losses are left to the ACK timer (rxe's comp.started_retry does the same).
     */
    private void retry(QpEngine e, int psn, RetryCause cause) {
        if (e.comp.retryStarted) {
            return;
        }
        retryNow(e, psn, cause);
    }

    /**
     * Asks the requester to go back to psn and send again, if retries are left; else the work
     * request fails with RETRY_EXC_ERR. The QP's task carries it out.
     */
    private void retryNow(QpEngine e, int psn, RetryCause cause) {
        CompleterState comp = e.comp;
        comp.retryStarted = true;
        if (comp.retryLeft == 0) {
            counters.increment(Counter.RETRY_EXCEEDED_ERR);
            failFront(e, WcStatus.RETRY_EXC_ERR, 0);
        } else {
            // Counted per retry actually made, as rxe's RXE_CNT_COMP_RETRY (not for the one that gives up).
            counters.increment(Counter.COMPLETER_RETRY_ERR);
            comp.retryLeft--;
            askRetry(e, psn, cause, e.qp.retryCnt() - comp.retryLeft);
            comp.retransmitDeadline = Long.MAX_VALUE;
            tracer.trace(TraceEvent.RETRANSMIT, e.qp.qpn(), 0, psn, -1, comp.retryNumber);
        }
        control.schedule(e);
    }

    /** The retry hand-off: the requester goes back to psn at the start of its next turn. */
    private static void askRetry(QpEngine e, int psn, RetryCause cause, int number) {
        CompleterState comp = e.comp;
        comp.retryAsked++;
        comp.retryPsn = psn;
        comp.retryCause = cause;
        comp.retryNumber = number;
    }

    /** Completes the WQEs at the front of the send queue that are done, in order. */
    void drain(QpEngine e) {
        QueuePair qp = e.qp;
        WorkQueue<SendWqe> sq = qp.sendQueue();
        SendWqe w;
        while ((w = sq.peek()) != null && w.state == WqeState.DONE) {
            WcStatus status = w.earlyStatus == null ? WcStatus.SUCCESS : w.earlyStatus;
            boolean report = status != WcStatus.SUCCESS || w.signaled() || qp.sqSigAll();
            WrOpcodeInfo info = w.info;
            long wrId = w.wrId;
            int vendorErr = w.vendorErr;
            long bytes = info.completionBytes(w.length());
            if (w.readAtomicCounted) {
                e.comp.readsAtomicsRetired++;
            }
            // The slot is freed before the completion is published: an application that posts again as soon as
            // it sees the completion (ibv_rc_pingpong with max_send_wr 1) must find room, as on rxe.
            sq.remove();
            if (report) {
                // As rxe's sender completions: a successful WITH_IMM operation says so (its immediate data reads 0).
                int flags = status == WcStatus.SUCCESS && info.withImmediate() ? WorkCompletion.WITH_IMM : 0;
                completions.complete(qp.sendCq(), wrId, status, info.opcode().completion(), vendorErr, bytes, 0, qp.qpn(),
                        0, flags, false);
            }
            // rxe counts a SEND as it completes, on every transport and whatever its status (not when flushed).
            if (info.countsAsSend()) {
                counters.increment(Counter.RDMA_SENDS);
            }
            if (status != WcStatus.SUCCESS) {
                control.error(e, AsyncEventType.QP_FATAL, null);
                return;
            }
        }
    }

    /** The QP is in the error state: every WQE of the send queue completes with WR_FLUSH_ERR, in order. */
    void flush(QpEngine e) {
        QueuePair qp = e.qp;
        WorkQueue<SendWqe> sq = qp.sendQueue();
        SendWqe w;
        while ((w = sq.peek()) != null) {
            if (w.readAtomicCounted) {
                e.comp.readsAtomicsRetired++;
            }
            long wrId = w.wrId;
            WcOpcode opcode = w.opcode.completion();
            sq.remove();
            completions.complete(qp.sendCq(), wrId, WcStatus.WR_FLUSH_ERR, opcode, 0, 0, 0, qp.qpn(), 0, 0, false);
        }
        e.comp.retransmitDeadline = Long.MAX_VALUE;
        e.comp.compPsn = e.req.psn;
        e.recountInFlight();
    }

    /** The QP is destroyed: nothing of it is in flight any more. */
    void detach(QpEngine e) {
        e.comp.compPsn = e.req.psn;
        e.flow.detach();
    }
}
