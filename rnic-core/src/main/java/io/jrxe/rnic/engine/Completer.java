package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.memory.AccessError;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.rnic.qp.QueuePair;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.verbs.WcStatus;
import io.jrxe.rnic.queue.WqeState;
import io.jrxe.rnic.queue.WorkQueue;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RnrTimer;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.psn.Psn;

import java.nio.ByteBuffer;

/**
 * The completer: turns ACKs, NAKs, READ responses and atomic ACKs into completions, in order.
 * A later ACK or response acknowledges every earlier PSN; a PSN sequence NAK, an implied NAK (a
 * READ response beyond the expected PSN) or the local ACK timeout asks the requester to go back
 * (go-back-N, resuming a READ in the middle of its response) and costs one of retry_cnt; an RNR
 * NAK waits its timer and costs one of rnr_retry (7: forever); any other NAK fails the work
 * request and moves the QP to the error state.
 * <p>
 * On a response it only marks: WQEs done, the acknowledged PSN, a retry asked for; then it
 * schedules the QP's task, which writes the completions ({@link #drain}) and runs the requester.
 * It never sends and never runs the requester itself (rxe's completer hands off the same way).
 */
final class Completer {
    private final DataPath dp;
    private final BthFlyweight bth = new BthFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();
    private final ByteBuffer scratch8 = ByteBuffer.allocate(8).order(java.nio.ByteOrder.nativeOrder());

    Completer(DataPath dp) {
        this.dp = dp;
    }

    void response(QpEngine e, Opcode op, ByteBuffer buf, int offset, int payloadOffset, int payloadLength) {
        bth.wrap(buf, offset);
        int psn = bth.psn();
        QueuePair qp = e.qp;
        if (!e.outstanding()) {
            dp.drop(DropReason.GHOST_ACK, qp.qpn(), psn, op.code());
            return;
        }
        int syndrome = AethSyndrome.ack(AethSyndrome.CREDITS_INVALID);
        if (op.has(ExtensionHeader.AETH)) {
            syndrome = aeth.wrap(buf, offset + op.offsetOf(ExtensionHeader.AETH)).syndrome();
        }
        // A response for a PSN never sent, or for one already acknowledged, changes nothing.
        if (!Psn.before(psn, e.req.psn)) {
            dp.drop(DropReason.GHOST_ACK, qp.qpn(), psn, op.code());
            return;
        }
        if (op.operation() == Operation.RDMA_READ_RESPONSE && answersPlacement(e, op, psn, payloadLength)) {
            ack(e, psn, syndrome); // a FLUSH's or ATOMIC WRITE's response acknowledges it as an ACK would
        } else if (op.operation() == Operation.RDMA_READ_RESPONSE) {
            readResponse(e, op, psn, buf, payloadOffset, payloadLength);
        } else if (op.operation() == Operation.ATOMIC_ACKNOWLEDGE) {
            atomicAck(e, psn, buf, offset + op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH));
        } else {
            ack(e, psn, syndrome);
        }
        // What the response decided (WQEs done, a retry, room in the windows) is carried out by the QP's task.
        dp.schedule(e);
    }

    /**
     * A zero-length RDMA READ response ONLY at the PSN of a FLUSH or ATOMIC WRITE: how rxe (and
     * the memory placement extensions) answer those; it was taken for a READ's response and
     * failed the work request with BAD_RESP_ERR.
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
        if (AethSyndrome.type(syndrome) != AethSyndrome.TYPE_ACK && Psn.before(psn, e.comp.compPsn)) {
            // A NAK for a PSN that is acknowledged already is stale: the request it names arrived late and
            // was executed and answered. Retrying from there finds no WQE to resend, yet stopped the ACK
            // timer, so the requests after it that the responder had dropped were never sent again.
            return;
        }
        switch (AethSyndrome.type(syndrome)) {
            case AethSyndrome.TYPE_ACK -> {
                if (Psn.before(psn, e.comp.compPsn) && Psn.diff(e.comp.compPsn, psn) > 1) {
                    return; // duplicate ACK
                }
                dp.trace(TraceEvent.ACK_RECEIVED, qp.qpn(), 0, psn, -1, syndrome);
                acknowledgeThrough(e, psn);
            }
            case AethSyndrome.TYPE_RNR_NAK -> {
                dp.trace(TraceEvent.NAK_RECEIVED, qp.qpn(), 0, psn, -1, syndrome);
                dp.rnic.counters().increment(Counter.RCVD_RNR_ERR);
                acknowledgeThrough(e, Psn.add(psn, -1));
                if (qp.state() != QpState.RTS) {
                    return;
                }
                if (e.comp.rnrRetryLeft == 0) {
                    dp.rnic.counters().increment(Counter.RETRY_RNR_EXCEEDED_ERR);
                    failFront(e, WcStatus.RNR_RETRY_EXC_ERR, 0);
                    return;
                }
                if (qp.rnrRetry() != 7) {
                    e.comp.rnrRetryLeft--;
                }
                e.req.needRetry = true;
                e.req.retryPsn = psn;
                e.req.retryCause = RetryCause.RNR_NAK;
                e.req.retryNumber = qp.rnrRetry() == 7 ? 0 : qp.rnrRetry() - e.comp.rnrRetryLeft;
                long wait = RnrTimer.nanos(AethSyndrome.value(syndrome));
                e.req.rnrResumeAt = dp.time.nanoTime() + wait;
                e.comp.retransmitDeadline = Long.MAX_VALUE;
                if (!e.req.rnrTimerPending) {
                    e.req.rnrTimerPending = true;
                    dp.time.schedule(wait, e.rnrResume);
                }
            }
            case AethSyndrome.TYPE_NAK -> {
                dp.trace(TraceEvent.NAK_RECEIVED, qp.qpn(), 0, psn, -1, syndrome);
                NakCode code = NakCode.of(AethSyndrome.value(syndrome));
                if (code == NakCode.PSN_SEQUENCE_ERROR) {
                    dp.rnic.counters().increment(Counter.RCVD_SEQ_ERR);
                    acknowledgeThrough(e, Psn.add(psn, -1));
                    if (qp.state() == QpState.RTS && e.outstanding()) {
                        retry(e, psn, RetryCause.SEQUENCE_NAK);
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

    /** Every WQE whose packets all lie at or before psn is acknowledged (READs and atomics need their responses). */
    private void acknowledgeThrough(QpEngine e, int psn) {
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        boolean progress = false;
        boolean impliedNak = false;
        int through = psn;
        for (int i = 0; i < e.req.reqIndex + 1; i++) {
            SendWqe w = sq.peek(i);
            if (w == null || w.state == WqeState.POSTED) {
                break;
            }
            if (w.state == WqeState.DONE) {
                continue;
            }
            if (Psn.after(w.firstPsn, psn)) {
                break;
            }
            if (Requester.isReadOrAtomic(w.opcode)) {
                // An ACK acknowledges none of a READ's or atomic's PSNs, only its responses do: an ACK
                // inside its range (a responder re-acknowledging a duplicate) moved compPsn past it, its
                // responses were then dropped as ghosts and the QP stalled. One beyond it means its
                // response was lost (implied NAK), once the WQEs before it are acknowledged.
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
        if (Psn.after(Psn.add(through, 1), e.comp.compPsn)) {
            e.comp.compPsn = Psn.add(through, 1);
            dp.window.update(e);
            progress = true;
        }
        if (progress) {
            madeProgress(e);
        }
        if (impliedNak && e.qp.state() == QpState.RTS) {
            retry(e, e.comp.compPsn, RetryCause.IMPLIED_NAK);
        }
    }

    private void readResponse(QpEngine e, Opcode op, int psn, ByteBuffer buf, int payloadOffset, int payloadLength) {
        QueuePair qp = e.qp;
        if (Psn.before(psn, e.comp.compPsn)) {
            return; // duplicate response
        }
        if (psn != e.comp.compPsn && !acknowledgesTheGap(e, psn)) {
            retry(e, e.comp.compPsn, RetryCause.IMPLIED_NAK); // implied NAK: a response went missing
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
        if (!positionOk || payloadLength != expected) {
            failFront(e, WcStatus.BAD_RESP_ERR, op.code());
            return;
        }
        acknowledgeBefore(e, w);
        if (payloadLength > 0) {
            AccessError err = dp.dma.scatter(qp.pd(), w.sgl, offset, buf, payloadOffset, payloadLength);
            if (err != AccessError.NONE) {
                failFront(e, WcStatus.LOC_PROT_ERR, err.code());
                return;
            }
        }
        e.comp.compPsn = Psn.next(psn);
        dp.window.update(e);
        if (last) {
            w.state = WqeState.DONE;
        }
        madeProgress(e);
    }

    private void atomicAck(QpEngine e, int psn, ByteBuffer buf, int at) {
        if (Psn.before(psn, e.comp.compPsn)) {
            return;
        }
        if (psn != e.comp.compPsn && !acknowledgesTheGap(e, psn)) {
            retry(e, e.comp.compPsn, RetryCause.IMPLIED_NAK);
            return;
        }
        SendWqe w = wqeAt(e, psn);
        if (w == null || (w.opcode != WrOpcode.ATOMIC_CMP_AND_SWP && w.opcode != WrOpcode.ATOMIC_FETCH_AND_ADD)) {
            failFront(e, WcStatus.BAD_RESP_ERR, Opcode.RC_ATOMIC_ACKNOWLEDGE.code());
            return;
        }
        acknowledgeBefore(e, w);
        scratch8.putLong(0, atomicAck.wrap(buf, at).originalData());
        AccessError err = dp.dma.scatter(e.qp.pd(), w.sgl, 0, scratch8, 0, 8);
        if (err != AccessError.NONE) {
            failFront(e, WcStatus.LOC_PROT_ERR, err.code());
            return;
        }
        e.comp.compPsn = Psn.next(psn);
        dp.window.update(e);
        w.state = WqeState.DONE;
        madeProgress(e);
    }

    /**
     * A response beyond compPsn that starts the answer of a READ or atomic, with only SENDs and
     * WRITEs (or the like) waiting before it: it acknowledges them (IBTA 9.7.5.1; rxe's check_psn
     * completes the older WQEs), so the gap is their lost ACK, not a lost response. It was taken
     * for an implied NAK and everything from the first unacknowledged WRITE was sent again.
     * On true, compPsn has moved up to psn.
     */
    private boolean acknowledgesTheGap(QpEngine e, int psn) {
        SendWqe target = wqeAt(e, psn);
        if (target == null || psn != target.responseStartPsn || Psn.before(psn, e.comp.compPsn)) {
            return false;
        }
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        for (int i = 0; i <= e.req.reqIndex; i++) {
            SendWqe w = sq.peek(i);
            if (w == null || w == target) {
                break;
            }
            if (w.state != WqeState.DONE
                    && (w.state != WqeState.SENT || Requester.isReadOrAtomic(w.opcode))) {
                return false;
            }
        }
        e.comp.compPsn = psn;
        return true;
    }

    /** The WQE (sent, not done) whose PSN range holds psn. */
    private SendWqe wqeAt(QpEngine e, int psn) {
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        for (int i = 0; i <= e.req.reqIndex; i++) {
            SendWqe w = sq.peek(i);
            if (w == null || w.state == WqeState.POSTED) {
                return null;
            }
            if (w.state != WqeState.DONE && !Psn.before(psn, w.firstPsn) && !Psn.after(psn, w.lastPsn)) {
                return w;
            }
        }
        return null;
    }

    /** A response for w implicitly acknowledges the SENDs and WRITEs before it. */
    private void acknowledgeBefore(QpEngine e, SendWqe target) {
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        for (int i = 0; i <= e.req.reqIndex; i++) {
            SendWqe w = sq.peek(i);
            if (w == null || w == target) {
                return;
            }
            if (w.state == WqeState.SENT && !Requester.isReadOrAtomic(w.opcode)) {
                w.state = WqeState.DONE;
            }
        }
    }

    /** Something was acknowledged: completions to write, retries counted afresh, the ACK timer restarted. */
    private void madeProgress(QpEngine e) {
        e.comp.hasWork = true;
        e.comp.retryStarted = false;
        e.comp.retryLeft = e.qp.retryCnt();
        e.comp.rnrRetryLeft = e.qp.rnrRetry();
        if (e.outstanding()) {
            e.comp.retransmitDeadline = dp.time.nanoTime() + timeout(e);
        } else {
            e.comp.retransmitDeadline = Long.MAX_VALUE;
        }
    }

    /**
     * The local ACK timeout, stretched by up to a half at random: when many QPs lose packets to
     * one overflowing receive buffer, their retransmissions spread out instead of overflowing it
     * again all at once. (IBTA sets the timeout's floor, not its exact value.)
     */
    private static long timeout(QpEngine e) {
        long t = Requester.ackTimeout(e.qp);
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
        long timeout = Requester.ackTimeout(e.qp);
        if (timeout == Long.MAX_VALUE || e.qp.type() != QpType.RC) {
            return;
        }
        if (e.comp.retransmitDeadline == Long.MAX_VALUE) {
            e.comp.retransmitDeadline = dp.time.nanoTime() + timeout(e);
        }
        if (!e.comp.retransmitTimerPending) {
            e.comp.retransmitTimerPending = true;
            dp.time.schedule(e.comp.retransmitDeadline - dp.time.nanoTime(), e.retransmitCheck);
        }
    }

    void timerFired(QpEngine e) {
        e.comp.retransmitTimerPending = false;
        QueuePair qp = e.qp;
        if (qp.state() != QpState.RTS || !e.outstanding() || e.comp.retransmitDeadline == Long.MAX_VALUE) {
            return;
        }
        long now = dp.time.nanoTime();
        if (now < e.comp.retransmitDeadline) {
            e.comp.retransmitTimerPending = true;
            dp.time.schedule(e.comp.retransmitDeadline - now, e.retransmitCheck);
            return;
        }
        if (now < e.req.rnrResumeAt) {
            return;
        }
        retryNow(e, e.comp.compPsn, RetryCause.ACK_TIMEOUT);
    }

    /**
     * A NAK or an implied NAK asks to go back to psn. Only the first one starts a retry until
     * something is acknowledged again: every READ response after a lost one is an implied NAK,
     * and retrying for each of them resent the READ many times and spent all of retry_cnt on one
     * lost packet. Later losses are left to the ACK timer (rxe's comp.started_retry does the same).
     */
    void retry(QpEngine e, int psn, RetryCause cause) {
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
        e.comp.retryStarted = true;
        if (e.comp.retryLeft == 0) {
            dp.rnic.counters().increment(Counter.RETRY_EXCEEDED_ERR);
            failFront(e, WcStatus.RETRY_EXC_ERR, 0);
        } else {
            // Counted per retry actually made, as rxe's RXE_CNT_COMP_RETRY (not for the one that gives up).
            dp.rnic.counters().increment(Counter.COMPLETER_RETRY_ERR);
            e.comp.retryLeft--;
            e.req.needRetry = true;
            e.req.retryPsn = psn;
            e.req.retryCause = cause;
            e.req.retryNumber = e.qp.retryCnt() - e.comp.retryLeft;
            e.comp.retransmitDeadline = Long.MAX_VALUE;
            dp.trace(TraceEvent.RETRANSMIT, e.qp.qpn(), 0, psn, -1, e.qp.retryCnt() - e.comp.retryLeft);
        }
        dp.schedule(e);
    }

    /** Completes the WQEs at the front of the send queue that are done, in order. */
    void drain(QpEngine e) {
        QueuePair qp = e.qp;
        WorkQueue<SendWqe> sq = qp.sendQueue();
        SendWqe w;
        while ((w = sq.peek()) != null && w.state == WqeState.DONE) {
            WcStatus status = w.earlyStatus == null ? WcStatus.SUCCESS : w.earlyStatus;
            boolean report = status != WcStatus.SUCCESS || w.signaled() || qp.sqSigAll();
            WrOpcode op = w.opcode;
            long wrId = w.wrId;
            int vendorErr = w.vendorErr;
            long bytes = op == WrOpcode.RDMA_READ || op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM
                    || op == WrOpcode.SEND_WITH_INV || op == WrOpcode.RDMA_WRITE
                    || op == WrOpcode.RDMA_WRITE_WITH_IMM || op == WrOpcode.FLUSH ? w.length()
                    : Requester.isReadOrAtomic(op) || op == WrOpcode.ATOMIC_WRITE ? 8 : 0;
            // FLUSH reports the range it covered and ATOMIC_WRITE its 8 bytes, as rxe (the WQE's DMA length).
            // The slot is freed before the completion is published: an application that posts again as soon as
            // it sees the completion (ibv_rc_pingpong with max_send_wr 1) must find room, as on rxe.
            sq.remove();
            if (e.req.reqIndex > 0) {
                e.req.reqIndex--;
            }
            if (report) {
                // As rxe's sender completions: a successful WITH_IMM operation says so (its immediate data reads 0).
                int flags = status == WcStatus.SUCCESS && (op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.RDMA_WRITE_WITH_IMM)
                        ? io.jrxe.verbs.WorkCompletion.WITH_IMM : 0;
                dp.complete(qp.sendCq(), wrId, status, op.completion(), vendorErr, bytes, 0, qp.qpn(), 0, flags, false);
            }
            // rxe counts a SEND as it completes, on every transport and whatever its status (not when flushed).
            if (op == WrOpcode.SEND || op == WrOpcode.SEND_WITH_IMM || op == WrOpcode.SEND_WITH_INV) {
                dp.rnic.counters().increment(Counter.RDMA_SENDS);
            }
            if (Requester.isReadOrAtomic(op) && e.req.outstandingReadsAtomics > 0) {
                e.req.outstandingReadsAtomics--;
            }
            if (status != WcStatus.SUCCESS) {
                dp.error(e, null);
                return;
            }
        }
    }

    /**
     * Fails the oldest outstanding WQE with this status: writing its completion moves the QP to
     * the error state (in {@link #drain}). With none outstanding, the QP goes to the error state now.
     */
    private void failFront(QpEngine e, WcStatus status, int vendorErr) {
        WorkQueue<SendWqe> sq = e.qp.sendQueue();
        for (int i = 0; i <= e.req.reqIndex; i++) {
            SendWqe w = sq.peek(i);
            if (w == null) {
                break;
            }
            if (w.state != WqeState.DONE) {
                w.finish(status, vendorErr);
                e.comp.hasWork = true;
                return;
            }
        }
        if (e.qp.state() != QpState.ERR) {
            dp.error(e, null);
        }
    }
}
