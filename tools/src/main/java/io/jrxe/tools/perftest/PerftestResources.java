package io.jrxe.tools.perftest;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.VendorErrText;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Ah;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What a perftest run makes on the device: the buffer, MR, CQs (with completion channels for -e) and QPs,
 * the work requests the tests post, and the QPs' addresses for the handshake.
 *
 * <p>Memory as perftest lays it out: per QP one area to send from (area i) and one the peer writes into or
 * reads from (area qps + i, whose address the key message carries), each max(size, page) bytes. A UD receive
 * starts {@link #GRH} bytes before a cache line of its area, so that the message after the GRH is aligned.
 *
 * <p>The QPs are of the test's connection type: RC, UC (no READs or atomics, no ACKs) or UD (an address handle per
 * QP and perftest's fixed Q_Key). With --use-srq the receives of every QP go to one SRQ, the depth shared out.
 */
final class PerftestResources implements AutoCloseable {
    /** perftest's DEF_QKEY: both sides use it, so it is not in the exchange. */
    static final int QKEY = 0x11111111;
    /** A UD receive's first bytes: the GRH (perftest's UD_ADDITION). */
    static final int GRH = 40;

    private final PerftestSettings s;
    private final LocalDevice dev;
    private final GidEntry gid;
    private final Arena arena = Arena.ofShared();
    private final long areaSize;
    private Pd pd;
    /** Where the resources are: the device's context, or the CM identifier's. */
    private Context context;
    MemorySegment buf;
    private Mr mr;
    /** --use-srq where this side receives, else null. */
    private Srq srq;
    /** UD: the address handle of each QP's peer. */
    private Ah[] ahs;
    CompChannel sendChannel;
    CompChannel recvChannel;
    Cq sendCq;
    Cq recvCq;
    final List<Qp> qps = new ArrayList<>();
    /** This side's QPs as the handshake sends them, and the peer's, as they arrive. */
    PerftestDest[] mine;
    PerftestDest[] remote;
    /** Where the tests poll completions to. */
    final WorkCompletion[] wcs = new WorkCompletion[16];

    /** Runs a jrxe NIC that this program's thread drives, while a loop polls memory (see LocalDevice#progress). */
    int progress() {
        return dev.progress();
    }

    PerftestResources(PerftestSettings s, LocalDevice dev, GidEntry gid) {
        this.s = s;
        this.dev = dev;
        this.gid = gid;
        long udOffset = s.connection == ConnectionType.UD ? s.cacheLine : 0;
        this.areaSize = Math.max(s.maxSize + udOffset, s.cycleBuffer);
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
    }

    /** Makes it all; what was made before a failure goes in {@link #close}. */
    void allocate() throws VerbsException {
        allocateMemory(dev.context());
        for (int i = 0; i < s.qps; i++) {
            Qp qp = pd.createQp(qpAttributes());
            qp.modify(init());
            addQp(i, qp);
        }
    }

    /**
     * The PD, buffer, MR, CQs (and SRQ) on {@code on}: the device's context, or with -R the context of the
     * connection manager's identifier, which the QPs must share ({@link CmTestQps}).
     */
    /** Entries for a CQ that serves {@code qps} queues of {@code depth}: all of them, at least 16, at most max_cqe. */
    static int cqEntries(int depth, int qps, int maxCqe) {
        return (int) Math.min(maxCqe, Math.max(16L, (long) depth * qps));
    }

    void allocateMemory(Context on) throws VerbsException {
        context = on;
        pd = on.allocPd();
        long bytes = 2L * s.qps * areaSize;
        buf = arena.allocate(bytes, s.cycleBuffer);
        mr = pd.regMr(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC
                | (s.odp ? Access.ON_DEMAND : 0));
        if (s.events) {
            sendChannel = on.createCompChannel();
            recvChannel = on.createCompChannel();
        }
        // As perftest: a CQ for every QP's whole queue, but never more than the device's max_cqe (-q 10000 would
        // need 1,280,000 entries); the test polls far more often than so many completions could come.
        int maxCqe = on.queryDevice().maxCqe();
        sendCq = on.createCq(cqEntries(s.txDepth, s.qps, maxCqe), sendChannel);
        recvCq = on.createCq(cqEntries(s.rxDepth, s.qps, maxCqe), recvChannel);
        mine = new PerftestDest[s.qps];
        remote = new PerftestDest[s.qps];
        ahs = new Ah[s.qps];
        if (s.srqHere()) {
            srq = pd.createSrq(s.rxDepth, 1);
        }
    }

    boolean allocated() {
        return pd != null;
    }

    Pd pd() {
        return pd;
    }

    /** What each test QP is created with. */
    QpInitAttributes qpAttributes() {
        return new QpInitAttributes(s.connection.qpType(), sendCq, recvCq, srq,
                new QpCapabilities(s.txDepth, srq != null ? 0 : Math.max(1, s.rxDepth), 1, 1, 0), false);
    }

    /** Takes QP {@code index} (in INIT or, through the CM, already connected) and writes its key message. */
    void addQp(int index, Qp qp) {
        qps.add(qp);
        mine[index] = new PerftestDest(0, s.outReads, qp.qpNum(), ThreadLocalRandom.current().nextInt() & 0xFFFFFF, mr.rkey(),
                buf.address() + (s.qps + index) * areaSize, gid.gid(), 0);
    }

    /** ctx_modify_qp_to_init: UD takes perftest's Q_Key, UC the remote access of its verb (it has no READs or atomics). */
    private QpAttributes init() {
        QpAttributes a = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(s.ibPort);
        return switch (s.connection) {
            case RC -> a.accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
            case UC -> a.accessFlags(s.verb == Verb.SEND ? Access.REMOTE_WRITE | Access.LOCAL_WRITE : Access.REMOTE_WRITE);
            case UD -> a.qkey(QKEY);
        };
    }

    /**
     * ctx_connect: RTR towards the peer's QP (hop limit 255, as perftest), then RTS. RC agrees on the reads and
     * atomics in flight and sets the retries; UC has none of that; UD only moves through the states and makes the
     * address handle its sends name (RTS needs just the first PSN).
     */
    void connect(int index, PerftestDest me, PerftestDest peer) throws VerbsException {
        Qp qp = qps.get(index);
        AddressVector av = new AddressVector(peer.gid(), s.gidIndex, 0xFF, 0, 0, s.sl, s.ibPort);
        switch (s.connection) {
            case RC -> {
                qp.modify(new QpAttributes().state(QpState.RTR).av(av)
                        .pathMtu(s.mtu).destQpn(peer.qpn()).rqPsn(peer.psn())
                        .maxDestRdAtomic(me.outReads()).minRnrTimer(12));
                qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(me.psn()).timeout(s.qpTimeout).retryCnt(7).rnrRetry(7)
                        .maxRdAtomic(Math.max(1, Math.min(peer.outReads(), context.queryDevice().maxQpRdAtom()))));
            }
            case UC -> {
                qp.modify(new QpAttributes().state(QpState.RTR).av(av).pathMtu(s.mtu).destQpn(peer.qpn()).rqPsn(peer.psn()));
                qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(me.psn()));
            }
            case UD -> {
                qp.modify(new QpAttributes().state(QpState.RTR));
                qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(me.psn()));
                ahs[index] = pd.createAh(av);
            }
        }
    }

    long localArea(int qp) {
        return buf.address() + qp * areaSize;
    }

    long remoteArea(int qp) {
        return buf.address() + (s.qps + qp) * areaSize;
    }

    long offsetOf(long address) {
        return address - buf.address();
    }

    /**
     * The work requests one ibv_post_send call posts on {@code qp}: one, or with -l a chain of them, in which every
     * cq_mod-th asks for a completion (so the chain's last does: the post list is a multiple of cq_mod).
     */
    SendWr sendChain(int qp, long size) {
        SendWr head = sendWr(qp, size);
        if (s.postList == 1) {
            return head;
        }
        SendWr at = head;
        for (int j = 0; j < s.postList; j++) {
            at.flags = (j + 1) % s.cqMod == 0 ? SendWr.SIGNALED : 0;
            if (j + 1 < s.postList) {
                SendWr next = sendWr(qp, size);
                at.next(next);
                at = next;
            }
        }
        return head;
    }

    SendWr sendWr(int qp, long size) {
        SendWr wr = new SendWr(1);
        wr.wrId = qp;
        wr.opcode = switch (s.verb) {
            case SEND -> WrOpcode.SEND;
            case WRITE -> WrOpcode.RDMA_WRITE;
            case READ -> WrOpcode.RDMA_READ;
            case ATOMIC -> "CMP_AND_SWAP".equals(s.atomicType) ? WrOpcode.ATOMIC_CMP_AND_SWP : WrOpcode.ATOMIC_FETCH_AND_ADD;
        };
        wr.sgl.add(localArea(qp), (int) size, mr.lkey());
        wr.remoteAddr = remote[qp].vaddr();
        wr.rkey = remote[qp].rkey();
        wr.compareAdd = 1;
        wr.swap = 1;
        wr.flags = SendWr.SIGNALED;
        if (s.connection == ConnectionType.UD) {
            wr.ahHandle = ahs[qp].handle();
            wr.remoteQpn = remote[qp].qpn();
            wr.remoteQkey = QKEY;
        }
        return wr;
    }

    /** The receives each QP's area gets at the start: the whole depth, or with an SRQ its share of it. */
    int receivesPerQp() {
        return srq != null ? s.rxDepth / s.qps : s.rxDepth;
    }

    /** Posts {@link #receivesPerQp} receives of {@code size} bytes for every QP (ctx_set_recv_wqes). */
    void postReceives(long size) throws VerbsException {
        int perQp = receivesPerQp();
        for (int q = 0; q < s.qps; q++) {
            RecvWr r = recvWr(q, size);
            for (int i = 0; i < perQp; i++) {
                postRecv(q, r);
            }
        }
    }

    /** A receive into the area of QP {@code q}, to its own receive queue or to the SRQ. */
    void postRecv(int q, RecvWr r) throws VerbsException {
        if (srq != null) {
            srq.postRecv(r);
        } else {
            qps.get(q).postRecv(r);
        }
    }

    /** A receive into QP {@code q}'s area; over UD with room for the GRH first. Its wr_id is the QP's index. */
    RecvWr recvWr(int q, long size) {
        RecvWr r = new RecvWr(1);
        r.wrId = q;
        if (s.connection == ConnectionType.UD) {
            r.sgl.add(remoteArea(q) + s.cacheLine - GRH, (int) size + GRH, mr.lkey());
        } else {
            r.sgl.add(remoteArea(q), (int) size, mr.lkey());
        }
        return r;
    }

    /** A completion with an error ends the test, with perftest's words and the counts so far. */
    static void check(WorkCompletion c, String what, long scnt, long ccnt) {
        if (c.status() != WcStatus.SUCCESS) {
            throw new UserError(String.format(Locale.ROOT, "Completion with error at %s: status %s (%d, %s), vendor error %d "
                    + "(after %d posted, %d completed)", what, c.status(), c.status().verbsValue(), c.status().description(),
                    c.vendorErr(), scnt, ccnt));
        }
    }

    @Override
    public void close() {
        for (Ah ah : ahs == null ? new Ah[0] : ahs) {
            if (ah != null) {
                try {
                    ah.close();
                } catch (VerbsException e) {
                    // the device goes next with all it holds
                }
            }
        }
        for (Qp qp : qps) {
            try {
                qp.close();
            } catch (VerbsException e) {
                // the device goes next with all it holds
            }
        }
        if (srq != null) {
            try {
                srq.close();
            } catch (VerbsException e) {
                // as above
            }
        }
        if (mr != null) {
            try {
                mr.close();
            } catch (VerbsException e) {
                // as above; the memory must outlive the registration (a kernel device pins its pages)
            }
        }
        arena.close();
    }
}
