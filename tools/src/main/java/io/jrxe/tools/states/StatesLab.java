package io.jrxe.tools.states;

import io.jrxe.rnic.memory.MemoryKey;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttr;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpConnect;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpPeer;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.emulated.EmulatedDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The scenes of `jrxe states`, played on two jrxe NICs: each object created, each QP transition tried first without
 * one attribute it requires (so the real refusal is seen) and then with all of them, and the receive-buffer memory of
 * many connections with and without a shared receive queue. Everything printed is a value the verbs layer returned
 * or a size computed from what was really created; no address or time is printed, so two runs read the same.
 */
final class StatesLab {
    private static final int BUFFER = 4096;
    private static final int CQ_ENTRIES = 64;
    private static final QpCapabilities CAPS = new QpCapabilities(16, 16, 1, 1, 0);
    private static final int PSN_A = 0x1000;
    private static final int PSN_B = 0x2000;
    private static final long COMPLETION_WAIT_SECONDS = 5;

    /** The SRQ scene's sizes (already checked by the command). */
    record SrqScene(int connections, int receivesPerQp, int receiveBytes, int activeConnections) {
        int srqDepth() {
            return activeConnections * receivesPerQp;
        }
    }

    /** One NIC's objects. */
    private static final class Side {
        final String name;
        final EmulatedDevice device;
        Context ctx;
        Pd pd;
        Mr mr;
        MemorySegment memory;
        Cq cq;
        Qp qp;

        Side(String name, EmulatedDevice device) {
            this.name = name;
            this.device = device;
        }
    }

    private final StatesReport report;
    private final Arena arena;

    StatesLab(StatesReport report, Arena arena) {
        this.report = report;
        this.arena = arena;
    }

    void objectsAndTransitions(String nameA, EmulatedDevice devA, String nameB, EmulatedDevice devB) throws VerbsException {
        Side a = create(new Side(nameA, devA));
        Side b = create(new Side(nameB, devB));
        report.add("objects", null, "Each device numbers its own QPs and keys: a QPN or a key means something on the"
                + " device that made it only.");
        transitions(a, b);
    }

    private Side create(Side s) throws VerbsException {
        s.ctx = s.device.open();
        report.add("objects", s.name, "ibv_open_device: a context, the program's handle on the NIC")
                .value("device", s.ctx.device().name())
                .value("port 1 active MTU", s.ctx.queryPort(1).activeMtu().bytes())
                .note("Every other object is made through the context and belongs to this one device.");
        s.pd = s.ctx.allocPd();
        report.add("objects", s.name, "ibv_alloc_pd: a protection domain")
                .note("Memory and QPs made in one PD can be used together only: a QP cannot touch an MR of another PD.");
        s.memory = arena.allocate(BUFFER, 4096);
        s.mr = s.pd.regMr(s.memory, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        report.add("objects", s.name, "ibv_reg_mr: a memory region of " + BUFFER + " bytes, LOCAL_WRITE | REMOTE_WRITE | REMOTE_READ")
                .value("lkey", hex(s.mr.lkey()))
                .value("rkey", hex(s.mr.rkey()))
                .value("key index", MemoryKey.index(s.mr.lkey()))
                .value("key variant", hex2(MemoryKey.variant(s.mr.lkey())))
                .note("The lkey names the region in this side's own work requests; the rkey is what a peer puts in"
                        + " its RDMA READ or WRITE.")
                .note("A key is the index of the NIC's memory table entry (upper 24 bits) and a variant (low byte):"
                        + " re-registering or invalidating the entry changes the variant, so an old key is refused.")
                .note("The rkey equals the lkey because the region grants remote access; without it the rkey is 0.");
        s.cq = s.ctx.createCq(CQ_ENTRIES, null);
        report.add("objects", s.name, "ibv_create_cq: a completion queue")
                .value("entries asked", CQ_ENTRIES)
                .value("entries given", s.cq.capacity())
                .note("Completions of sends and receives land here; a program polls it.");
        s.qp = s.pd.createQp(new QpInitAttributes(QpType.RC, s.cq, s.cq, null, CAPS, false));
        report.add("objects", s.name, "ibv_create_qp: a queue pair, reliable connected (RC)")
                .value("qpn", hex6(s.qp.qpNum()))
                .value("type", s.qp.type())
                .value("max_send_wr", CAPS.maxSendWr())
                .value("max_recv_wr", CAPS.maxRecvWr())
                .value("max_send_sge", CAPS.maxSendSge())
                .value("max_recv_sge", CAPS.maxRecvSge())
                .value("max_inline_data", CAPS.maxInlineData())
                .value("state", s.qp.query().state())
                .note("A new QP is in RESET: it can neither send nor receive until it is taken through INIT, RTR, RTS.");
        return s;
    }

    /**
     * Side b is taken to RTS in one go (it is the peer); side a step by step, each step first without one attribute
     * that IBTA (and ibv_modify_qp) requires for it.
     */
    private void transitions(Side a, Side b) throws VerbsException {
        QpConnect towardsB = QpConnect.to(new QpPeer(b.qp.qpNum(), PSN_B, b.ctx.queryGid(1, 1).gid())).localPsn(PSN_A)
                .pathMtu(a.ctx.queryPort(1).activeMtu());
        QpConnect towardsA = QpConnect.to(new QpPeer(a.qp.qpNum(), PSN_A, a.ctx.queryGid(1, 1).gid())).localPsn(PSN_B)
                .pathMtu(b.ctx.queryPort(1).activeMtu());
        towardsA.apply(b.qp);
        report.add("transitions", b.name, "The peer's QP taken RESET -> INIT -> RTR -> RTS (its attributes as below)")
                .value("state", b.qp.query().state());

        transition(a, towardsB.init(QpType.RC), QpAttr.ACCESS_FLAGS, "RESET -> INIT",
                "INIT: the QP is bound to a port and P_Key and told which remote operations it accepts. It can have"
                        + " receives posted now, but nothing arrives yet and it cannot send.");
        postSendRefused(a);

        transition(a, towardsB.rtr(QpType.RC), QpAttr.AV, "INIT -> RTR",
                "RTR (ready to receive): the QP knows its peer (address, QPN, first PSN) and accepts its packets.");
        postSendRefused(a);
        receivesInRtr(a, b);

        transition(a, towardsB.rts(QpType.RC), QpAttr.SQ_PSN, "RTR -> RTS",
                "RTS (ready to send): the requester's PSN, timeout and retries are set; the QP sends and receives.");
        sendsInRts(a, b);
    }

    /** Tries {@code attributes} without {@code left}, reports the refusal, then applies them all. */
    private void transition(Side s, QpAttributes attributes, QpAttr left, String name, String meaning) throws VerbsException {
        QpAttributes without = withoutOne(attributes, left);
        String refusal = refusal(() -> s.qp.modify(without));
        if (refusal == null) {
            report.unexpected(name + " without " + left + " was accepted");
        }
        StatesReport.StepBuilder tried = report.add("transitions", s.name, name + " without " + left + " (tried on purpose)")
                .value("attributes sent", QpAttr.names(without.mask()));
        tried.value("result", refusal == null ? "accepted" : refusal);
        tried.note("ibv_modify_qp checks the attribute mask against what the transition requires; the QP stays in "
                + s.qp.query().state() + ".");
        s.qp.modify(attributes);
        StatesReport.StepBuilder done = report.add("transitions", s.name, name + " with every required attribute")
                .value("required", QpAttr.names(attributes.mask() & ~QpAttr.STATE.bit()));
        describe(attributes, done);
        done.value("state now", s.qp.query().state());
        done.note(meaning);
    }

    /** A verbs call tried on purpose, expected to be refused. */
    @FunctionalInterface
    private interface Attempt {
        void run() throws VerbsException;
    }

    /** The refusal as the verbs layer gave it (errno, its number, the message), or null when the call was accepted. */
    private static String refusal(Attempt attempt) {
        try {
            attempt.run();
            return null;
        } catch (VerbsException e) {
            return e.errno() + " (" + e.errno().value() + "): " + e.getMessage();
        }
    }

    /** The same attributes with one left out: its value copied nowhere, its bit not in the mask. */
    private static QpAttributes withoutOne(QpAttributes all, QpAttr left) {
        QpAttributes copy = new QpAttributes();
        for (QpAttr attr : QpAttr.of(all.mask())) {
            if (attr == left) {
                continue;
            }
            switch (attr) {
                case STATE -> copy.state(all.state());
                case ACCESS_FLAGS -> copy.accessFlags(all.accessFlags());
                case PKEY_INDEX -> copy.pkeyIndex(all.pkeyIndex());
                case PORT -> copy.port(all.port());
                case AV -> copy.av(all.av());
                case PATH_MTU -> copy.pathMtu(all.pathMtu());
                case DEST_QPN -> copy.destQpn(all.destQpn());
                case RQ_PSN -> copy.rqPsn(all.rqPsn());
                case MAX_DEST_RD_ATOMIC -> copy.maxDestRdAtomic(all.maxDestRdAtomic());
                case MIN_RNR_TIMER -> copy.minRnrTimer(all.minRnrTimer());
                case TIMEOUT -> copy.timeout(all.timeout());
                case RETRY_CNT -> copy.retryCnt(all.retryCnt());
                case RNR_RETRY -> copy.rnrRetry(all.rnrRetry());
                case SQ_PSN -> copy.sqPsn(all.sqPsn());
                case MAX_QP_RD_ATOMIC -> copy.maxRdAtomic(all.maxRdAtomic());
                default -> throw new IllegalStateException("the states lesson does not send " + attr);
            }
        }
        return copy;
    }

    /** Each attribute of a transition with the value used and what it means (addresses and GIDs left out: see AV). */
    private static void describe(QpAttributes a, StatesReport.StepBuilder step) {
        for (QpAttr attr : QpAttr.of(a.mask())) {
            switch (attr) {
                case PKEY_INDEX -> step.value("pkey_index", a.pkeyIndex() + " (partition key table entry; 0 is the default 0xffff)");
                case PORT -> step.value("port_num", a.port());
                case ACCESS_FLAGS -> step.value("qp_access_flags", Access.names(a.accessFlags()) + " (what a peer may do to this side's memory)");
                case AV -> step.value("ah_attr (address vector)", "the peer's GID, source GID index " + a.av().sgidIndex()
                        + ", hop limit " + a.av().hopLimit());
                case PATH_MTU -> step.value("path_mtu", a.pathMtu().bytes() + " (largest payload of one packet)");
                case DEST_QPN -> step.value("dest_qp_num", hex6(a.destQpn()) + " (the peer's QP: every packet's BTH names it)");
                case RQ_PSN -> step.value("rq_psn", hex6(a.rqPsn()) + " (first PSN expected from the peer: its sq_psn)");
                case MAX_DEST_RD_ATOMIC -> step.value("max_dest_rd_atomic", a.maxDestRdAtomic() + " (READs/atomics accepted at once as responder)");
                case MIN_RNR_TIMER -> step.value("min_rnr_timer", a.minRnrTimer() + " (how long an RNR NAK tells the peer to wait: code 12 is 0.64 ms)");
                case TIMEOUT -> step.value("timeout", a.timeout() + " (ACK timeout 4.096 us x 2^" + a.timeout() + ")");
                case RETRY_CNT -> step.value("retry_cnt", a.retryCnt() + " (resends before RETRY_EXC_ERR)");
                case RNR_RETRY -> step.value("rnr_retry", a.rnrRetry() + " (RNR NAKs waited out; 7: without end)");
                case SQ_PSN -> step.value("sq_psn", hex6(a.sqPsn()) + " (first PSN this QP sends: the peer's rq_psn)");
                case MAX_QP_RD_ATOMIC -> step.value("max_rd_atomic", a.maxRdAtomic() + " (READs/atomics outstanding at once as requester)");
                default -> {
                }
            }
        }
    }

    private void postSendRefused(Side s) throws VerbsException {
        QpState state = s.qp.query().state();
        String refusal = refusal(() -> s.qp.postSend(send(s, 1)));
        if (refusal == null) {
            report.unexpected("a send posted in " + state + " was accepted");
        }
        report.add("transitions", s.name, "ibv_post_send in " + state + " (tried on purpose)")
                .value("result", refusal == null ? "accepted" : refusal)
                .note("Only a QP in RTS (or SQD) sends: before, it has no sq_psn, timeout or retry count to send with.");
    }

    /** Side a, in RTR, posts a receive and side b (in RTS) sends into it: RTR receives. */
    private void receivesInRtr(Side a, Side b) throws VerbsException {
        Exchange e = exchange(b, a, 7);
        if (!e.succeeded()) {
            report.unexpected("the QP in RTR did not receive the peer's SEND");
        }
        report.add("transitions", a.name, "ibv_post_recv in RTR, then the peer sends " + MESSAGE + " bytes")
                .value("receive completion", describe(e.received()))
                .value("peer's send completion", describe(e.sent()))
                .value("state", a.qp.query().state())
                .note("In RTR the QP receives (and ACKs) but does not send: the receive completed though its own send was refused.");
    }

    private void sendsInRts(Side a, Side b) throws VerbsException {
        Exchange e = exchange(a, b, 9);
        if (!e.succeeded()) {
            report.unexpected("the QP in RTS could not send");
        }
        report.add("transitions", a.name, "ibv_post_send in RTS: the same SEND that was refused before")
                .value("send completion", describe(e.sent()))
                .value("peer's receive completion", describe(e.received()));
    }

    /** One SEND and the receive it consumed: each side's completion, or null when none came in time. */
    private record Exchange(WorkCompletion sent, WorkCompletion received) {
        boolean succeeded() {
            return sent != null && sent.status() == WcStatus.SUCCESS && received != null
                    && received.status() == WcStatus.SUCCESS && received.opcode() == WcOpcode.RECV;
        }
    }

    /** The receiver posts a receive, the sender a SEND into it; both completions are awaited. */
    private static Exchange exchange(Side sender, Side receiver, long wrId) throws VerbsException {
        receiver.qp.postRecv(recv(receiver, wrId));
        sender.qp.postSend(send(sender, wrId + 1));
        WorkCompletion sent = await(sender.cq);
        return new Exchange(sent, await(receiver.cq));
    }

    /** "RECV SUCCESS, 32 bytes": opcode, status, and the length a receive got (no wr_id or QPN, which a reader knows). */
    private static String describe(WorkCompletion wc) {
        if (wc == null) {
            return "none within " + COMPLETION_WAIT_SECONDS + " s";
        }
        return wc.opcode() + " " + wc.status() + (wc.opcode() == WcOpcode.RECV ? ", " + wc.byteLen() + " bytes" : "");
    }

    private static final int MESSAGE = 32;

    private static SendWr send(Side s, long wrId) {
        SendWr wr = new SendWr(1);
        wr.wrId = wrId;
        wr.opcode = WrOpcode.SEND;
        wr.flags = SendWr.SIGNALED;
        wr.sgl.add(s.memory.address(), MESSAGE, s.mr.lkey());
        return wr;
    }

    private static RecvWr recv(Side s, long wrId) {
        RecvWr wr = new RecvWr(1);
        wr.wrId = wrId;
        wr.sgl.add(s.memory.address() + BUFFER / 2, BUFFER / 2, s.mr.lkey());
        return wr;
    }

    private static WorkCompletion await(Cq cq) {
        WorkCompletion[] wc = {new WorkCompletion()};
        try {
            return cq.poll(wc, COMPLETION_WAIT_SECONDS, TimeUnit.SECONDS) == 1 ? new WorkCompletion(wc[0]) : null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * N connections, each with a receive queue of R buffers of S bytes, against the same N connections sharing one SRQ
     * deep enough for the connections expected to receive at once. Both are built for real on the device: the figures
     * are the lengths of the regions registered and the receives posted.
     */
    void sharedReceiveQueue(String name, EmulatedDevice device, SrqScene scene) throws VerbsException {
        Context ctx = device.open();
        Pd pd = ctx.allocPd();
        Cq cq = ctx.createCq(CQ_ENTRIES, null);
        report.add("srq", name, "The question: " + scene.connections() + " connections, each ready to receive "
                + scene.receivesPerQp() + " messages of " + scene.receiveBytes() + " bytes")
                .note("A receive must be posted before its message arrives (else an RNR NAK), so every posted receive"
                        + " holds a registered buffer of the largest message, used or not.");

        List<Qp> own = new ArrayList<>();
        long ownPosted = 0;
        long ownBytes = 0;
        for (int c = 0; c < scene.connections(); c++) {
            Qp qp = pd.createQp(QpInitAttributes.builder(QpType.RC).cq(cq).maxRecvWr(scene.receivesPerQp()).build());
            own.add(qp);
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(0));
            Mr mr = pd.regMr(arena.allocate((long) scene.receivesPerQp() * scene.receiveBytes(), 4096), Access.LOCAL_WRITE);
            ownBytes += mr.length();
            ownPosted += postReceives(mr, scene, scene.receivesPerQp(), qp::postRecv);
        }
        report.add("srq", name, "One receive queue per QP: created and filled")
                .value("QPs", own.size())
                .value("receives posted", ownPosted)
                .value("buffer bytes registered", ownBytes)
                .value("formula", "N x R x S = " + scene.connections() + " x " + scene.receivesPerQp() + " x " + scene.receiveBytes())
                .note("Each QP's buffers wait for that QP's messages only: a quiet connection's buffers sit idle.");

        Srq srq = pd.createSrq(scene.srqDepth(), 1);
        List<Qp> sharing = new ArrayList<>();
        for (int c = 0; c < scene.connections(); c++) {
            sharing.add(pd.createQp(QpInitAttributes.builder(QpType.RC).cq(cq).srq(srq).build()));
        }
        Mr shared = pd.regMr(arena.allocate((long) scene.srqDepth() * scene.receiveBytes(), 4096), Access.LOCAL_WRITE);
        long sharedPosted = postReceives(shared, scene, scene.srqDepth(), srq::postRecv);
        report.add("srq", name, "One shared receive queue (SRQ) for all " + scene.connections() + " QPs: created and filled")
                .value("QPs attached", sharing.size())
                .value("SRQ depth (max_wr)", srq.maxWr())
                .value("receives posted", sharedPosted)
                .value("buffer bytes registered", shared.length())
                .value("formula", "A x R x S = " + scene.activeConnections() + " x " + scene.receivesPerQp() + " x "
                        + scene.receiveBytes() + " (A: connections expected to receive at once, --active)")
                .note("Any QP's message takes the next buffer of the SRQ: buffers follow the traffic, so they are sized"
                        + " for the connections busy at once, not for every connection.")
                .note("When more than A connections burst together the SRQ runs low: its limit event (ibv_modify_srq's"
                        + " srq_limit) tells the program to post more; an empty SRQ answers RNR NAK, as an empty RQ does.");
        long saved = ownBytes - shared.length();
        report.add("srq", name, "The difference")
                .value("per-QP receive queues", ownBytes)
                .value("one SRQ", shared.length())
                .value("saved", saved)
                .value("ratio", String.format(java.util.Locale.ROOT, "%.1f : 1", (double) ownBytes / shared.length()))
                .note("The saving grows with the connections: with an SRQ the memory follows the traffic, without one"
                        + " it follows the number of peers.")
                .note("`jrxe stat` prints srq-wrs on each QP's line: for QPs sharing an SRQ it is the SRQ's outstanding"
                        + " count seen when that QP's line was taken, one queue's figure repeated (it moves between lines"
                        + " under traffic); the SRQ's depth is this one figure: " + srq.maxWr() + ".");
        if (ownBytes != (long) scene.connections() * scene.receivesPerQp() * scene.receiveBytes()) {
            report.unexpected("the per-QP buffers are not N x R x S bytes");
        }
        for (Qp qp : sharing) {
            qp.close();
        }
        srq.close();
        for (Qp qp : own) {
            qp.close();
        }
    }

    /** Something that takes a receive work request: a QP's receive queue or an SRQ. */
    @FunctionalInterface
    private interface ReceivePoster {
        void post(RecvWr wr) throws VerbsException;
    }

    /** Posts {@code count} receives, each a consecutive {@code receiveBytes} slice of the region; returns how many. */
    private static long postReceives(Mr mr, SrqScene scene, int count, ReceivePoster poster) throws VerbsException {
        for (int i = 0; i < count; i++) {
            RecvWr wr = new RecvWr(1);
            wr.wrId = i;
            wr.sgl.add(mr.memory().address() + (long) i * scene.receiveBytes(), scene.receiveBytes(), mr.lkey());
            poster.post(wr);
        }
        return count;
    }

    static String hex(int key) {
        return String.format("0x%08x", key);
    }

    static String hex2(int v) {
        return String.format("0x%02x", v);
    }

    static String hex6(int v) {
        return String.format("0x%06x", v);
    }
}
