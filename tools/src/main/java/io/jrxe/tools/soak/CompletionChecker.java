package io.jrxe.tools.soak;

import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.wire.sim.VirtualTime;

/**
 * Checks the completions against the {@link SoakModel} as they come: each posted WR exactly once, in order per
 * QP, with the right opcode, byte_len and immediate; receives in the order of the messages that consume them.
 * When an operation's last completion arrives, the {@link MemoryChecker} compares its buffers.
 *
 * <p>A QP pair fails when a requester runs out of retries (RETRY_EXC_ERR, RNR_RETRY_EXC_ERR): that is what RC
 * does when the network loses too much, not a NIC bug. From then on both of its lanes take no new work, and
 * the completions that QP state ERR brings (WR_FLUSH_ERR, on both QPs of the pair; or the peer's own
 * RETRY_EXC_ERR) make their operations expected failures, each still due exactly once. Any other error
 * status is a mismatch; so is a pair that went to ERR without a requester running out of retries.
 *
 * <p>A UC lane's receives are not an operation's: {@link StandingReceives} checks them. A UC operation finishes only
 * a quarantine after its send completion, when no copy of its packets can still arrive.
 */
final class CompletionChecker {
    private final SoakModel model;
    private final SoakReport report;
    private final VirtualTime time;
    private final MemoryChecker memory;
    /** {@link SoakConfig#quarantineNanos}: how long a copy of a packet may still be on its way. */
    private final long quarantineNanos;
    private final WorkCompletion[] wcs = new WorkCompletion[32];
    private long duplicateOf = -1;
    private boolean pairFailed;

    CompletionChecker(SoakModel model, SoakReport report, VirtualTime time, MemoryChecker memory, long quarantineNanos) {
        this.model = model;
        this.report = report;
        this.time = time;
        this.memory = memory;
        this.quarantineNanos = quarantineNanos;
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /**
     * For the checker's own test: the send completion of operation {@code opId} is checked twice, as if the
     * NIC had written it twice. The run must then count one duplicated completion.
     */
    void duplicateSendCompletionOf(long opId) {
        duplicateOf = opId;
    }

    /** Whether a QP pair failed since the last call: its flushed completions may then wait on either NIC. */
    boolean pairFailedSinceAsked() {
        boolean was = pairFailed;
        pairFailed = false;
        return was;
    }

    /** Takes and checks every completion the NIC has. */
    void poll(SoakNic nic) throws VerbsException {
        int n;
        while ((n = nic.sendCq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                sendCompletion(nic, wcs[i]);
            }
        }
        while ((n = nic.recvCq.poll(wcs)) > 0) {
            for (int i = 0; i < n; i++) {
                recvCompletion(nic, wcs[i]);
            }
        }
    }

    private void sendCompletion(SoakNic nic, WorkCompletion wc) throws VerbsException {
        Lane lane = model.lane(nic, wc.qpNum());
        Operation op = model.takeSend(wc.wrId());
        if (lane == null || op == null || op.lane != lane) {
            unexpected(op == null && model.sendTaken(wc.wrId()),
                    "a send completion no posted work request was waiting for", nic, wc);
            return;
        }
        if (lane.sends.peekFirst() != op) {
            report.failed(op, "its send completion came before that of op " + lane.sends.peekFirst().id + " posted earlier");
        }
        lane.sends.remove(op);
        op.sendDone = true;
        long expectedLength = op.cell >= 0 ? 8 : op.length;
        if (wc.status() != WcStatus.SUCCESS) {
            error(op, "send completion", wc, true);
        } else if (wc.opcode() != op.kind.opcode.completion()
                || op.kind.sendByteLenChecked() && wc.byteLen() != expectedLength) {
            report.failed(op, "send completion " + wc + ", expected opcode " + op.kind.opcode.completion() + " byte_len "
                    + expectedLength);
        }
        maybeFinish(op);
        if (op.id == duplicateOf) {
            duplicateOf = -1;
            sendCompletion(nic, wc);
        }
    }

    private void recvCompletion(SoakNic nic, WorkCompletion wc) throws VerbsException {
        if (StandingReceives.isStanding(wc.wrId())) {
            Integer index = nic.qpIndex.get(wc.qpNum());
            Lane lane = index == null ? null : model.incoming(nic, index);
            if (lane == null || lane.standing == null) {
                report.stray("a UC receive completion on a QP that is not UC, on " + nic + ": " + wc);
            } else {
                lane.standing.completion(wc, report, memory);
            }
            return;
        }
        int srqSlot = -1;
        Operation op;
        if (SrqReceives.isShared(wc.wrId()) && nic.srqReceives != null) {
            srqSlot = nic.srqReceives.take(wc, report);
            if (srqSlot < 0) {
                return;
            }
            op = sharedReceiveOf(nic, wc);
            if (op == null) {
                return;
            }
        } else {
            op = model.takeRecv(wc.wrId());
        }
        if (op == null || op.lane.to != nic || op.lane.to.qps[op.lane.index].qpNum() != wc.qpNum()) {
            unexpected(op == null && model.recvTaken(wc.wrId()),
                    "a receive completion no posted receive was waiting for", nic, wc);
            return;
        }
        Lane lane = op.lane;
        if (lane.recvs.peekFirst() != op) {
            report.failed(op, "its receive completed before that of op " + lane.recvs.peekFirst().id
                    + ", whose message was sent earlier");
        }
        lane.recvs.remove(op);
        op.recvDone = true;
        if (srqSlot >= 0 && !nic.srqReceives.received(op, srqSlot, wc.status(), memory)) {
            report.failed(op, null);
        }
        if (wc.status() != WcStatus.SUCCESS && lane.failed && srqSlot >= 0) {
            // The message its failed QP was receiving into an SRQ receive when the pair failed.
            op.expectedFailure = true;
        } else if (wc.status() != WcStatus.SUCCESS) {
            error(op, "receive completion", wc, false);
        } else {
            op.recvSucceeded = true;
            String wrong = op.receiveProblem(wc, 0);
            if (wrong != null) {
                report.failed(op, wrong);
            }
        }
        maybeFinish(op);
    }

    /**
     * The operation an SRQ receive completion is of: the oldest of its lane (the QP it names) still waiting for a
     * receive, as RC delivers a QP's messages in order; null (said to the report) when there is none.
     */
    private Operation sharedReceiveOf(SoakNic nic, WorkCompletion wc) {
        Integer index = nic.qpIndex.get(wc.qpNum());
        Lane lane = index == null ? null : model.incoming(nic, index);
        Operation op = lane == null ? null : lane.recvs.peekFirst();
        if (op == null) {
            report.stray("an SRQ receive completion for a QP no message was due on, on " + nic + ": " + wc);
            return null;
        }
        return model.takeRecv(op.recvWrId());
    }

    /** A completion with an error status: the failure of the operation's QP pair, what it flushed, or a mismatch. */
    private void error(Operation op, String what, WorkCompletion wc, boolean requester) throws VerbsException {
        WcStatus status = wc.status();
        boolean outOfRetries = requester && (status == WcStatus.RETRY_EXC_ERR || status == WcStatus.RNR_RETRY_EXC_ERR);
        if (!op.lane.failed) {
            failPair(op.lane, "op " + op + ": " + what + " " + wc);
            if (outOfRetries) {
                op.expectedFailure = true;
            } else {
                report.failed(op, what + " " + wc + ": its QP failed, and not because it ran out of retries");
            }
        } else if (outOfRetries || status == WcStatus.WR_FLUSH_ERR) {
            op.expectedFailure = true;
        } else {
            report.failed(op, what + " " + wc);
        }
    }

    /**
     * Both lanes of the pair take no more work, and both of its QPs go to ERR: the one that failed is there
     * already; the other goes as an application tearing the connection down would take it, so that its
     * receives and sends flush instead of waiting for a peer that will never answer.
     */
    private void failPair(Lane lane, String cause) throws VerbsException {
        for (Lane l : model.lanes) {
            if (l.index == lane.index) {
                l.failed = true;
                if (l.standing != null) {
                    l.standing.closing = true;
                }
            }
        }
        report.pairFailed("QP pair " + lane.index + " failed (" + cause + "): its outstanding operations are "
                + "expected failures, and no new work goes to it");
        pairFailed = true;
        QpAttributes toError = new QpAttributes().state(QpState.ERR);
        lane.from.qps[lane.index].modify(toError);
        lane.to.qps[lane.index].modify(toError);
        if (lane.receivesFromSrq()) {
            time.schedule(quarantineNanos, () -> abandonSharedReceives(lane.index));
        }
    }

    /**
     * A while after QP pair {@code index} failed, no receive completion of it can come any more: its operations
     * still waiting for one through an SRQ (whose receives a failed QP does not flush) are expected failures.
     */
    private void abandonSharedReceives(int index) {
        for (Lane l : model.lanes) {
            if (l.index != index) {
                continue;
            }
            for (Operation op; (op = l.recvs.pollFirst()) != null; ) {
                model.takeRecv(op.recvWrId());
                op.recvDone = true;
                op.expectedFailure = true;
                maybeFinish(op);
            }
        }
    }

    /** A completion for a work request that is not outstanding: one that completed already, or none at all. */
    private void unexpected(boolean completedAlready, String what, SoakNic nic, WorkCompletion wc) {
        if (completedAlready) {
            report.duplicated("a second completion of the same work request, on " + nic + ": " + wc);
        } else {
            report.stray(what + ", on " + nic + ": " + wc);
        }
    }

    /**
     * With its last completion in, the operation's buffers are checked and it counts as finished; a UC one
     * first waits until no copy of its packets can be on the wire any more.
     */
    private void maybeFinish(Operation op) {
        if (op.missingCompletions() > 0) {
            return;
        }
        StandingReceives uc = op.lane.standing;
        if (uc != null && !op.quarantined) {
            op.quarantined = true;
            time.schedule(quarantineNanos, () -> maybeFinish(op));
            return;
        }
        if (!(uc != null ? memory.finishedUnreliable(op) : memory.finished(op))) {
            report.failed(op, null);
        }
        if (model.windows != null) {
            model.windows.finished(op);
            if (op.kind == OperationKind.MW_WRITE || op.kind == OperationKind.MW_READ) {
                time.schedule(quarantineNanos, () -> MemoryWindows.released(op));
            }
        }
        if (uc != null) {
            uc.finished(op);
        }
        op.finished = true;
        op.lane.active--;
        report.finished(op, time.nanoTime());
    }
}
