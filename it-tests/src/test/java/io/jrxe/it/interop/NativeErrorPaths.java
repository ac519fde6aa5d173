package io.jrxe.it.interop;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Device;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.facade.Verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in the lab's guest by {@link NativeErrorPathsInteropTest}: the error steps of `jrxe compare --scenario errors`
 * on a kernel device only (a READ with a wrong rkey, a WRITE past the end of the MR, a SEND longer than its
 * receive, a SEND without a receive until rnr_retry runs out, a SEND to a destroyed QP until retry_cnt runs out),
 * each on a new pair of QPs and CQs that are destroyed afterwards, ITERATIONS times in one JVM, with a full GC every
 * five rounds. Run with the JVM's heap verification on, a native provider that wrote where it should not (a struct
 * of the wrong size, a buffer freed while the kernel still used it) would show as a failed verification or a crash.
 * Prints the completion statuses it saw, by step, and {@code DONE} at the end. Usage: DEVICE GID_INDEX ITERATIONS.
 */
public final class NativeErrorPaths {
    private static final int ACCESS = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC;
    private static final Map<String, Integer> SEEN = new TreeMap<>();
    private static final WorkCompletion[] WC = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};

    private NativeErrorPaths() {
    }

    public static void main(String[] args) throws Exception {
        Device dev = Verbs.device(args[0]);
        int gidIndex = Integer.parseInt(args[1]);
        int n = Integer.parseInt(args[2]);
        long t0 = System.nanoTime();
        try (Context ctx = dev.open(); Arena arena = Arena.ofShared()) {
            GidEntry gid = ctx.queryGid(1, gidIndex);
            Pd pd = ctx.allocPd();
            MemorySegment ma = arena.allocate(65536, 4096);
            MemorySegment mb = arena.allocate(65536, 4096);
            Mr a = pd.regMr(ma, ACCESS);
            Mr b = pd.regMr(mb, ACCESS);
            for (int i = 0; i < n; i++) {
                for (int step = 0; step < 5; step++) {
                    run(ctx, pd, gid, a, b, ma, mb, step);
                }
                if (i % 5 == 4) {
                    System.gc();
                    System.out.println("iteration " + (i + 1) + " " + SEEN + " " + (System.nanoTime() - t0) / 1_000_000 + " ms");
                }
            }
            a.close();
            b.close();
            pd.close();
        }
        System.out.println("DONE " + SEEN);
    }

    /** One step on a new pair of QPs (0 wrong rkey, 1 out of bounds, 2 too long, 3 RNR, 4 QP gone), all released after. */
    private static void run(Context ctx, Pd pd, GidEntry gid, Mr a, Mr b, MemorySegment ma, MemorySegment mb, int step) throws Exception {
        Cq cqA = ctx.createCq(256, null);
        Cq cqB = ctx.createCq(256, null);
        QpCapabilities caps = new QpCapabilities(128, 128, 2, 2, 0);
        Qp qa = pd.createQp(new QpInitAttributes(QpType.RC, cqA, cqA, null, caps, false));
        Qp qb = pd.createQp(new QpInitAttributes(QpType.RC, cqB, cqB, null, caps, false));
        // compare's attributes: one RNR retry after 0.01 ms for the RNR step, one retransmission after 16.8 ms for
        // the QP-gone step, else a local ACK timeout of 1.07 s and 7 retries.
        int timeout = step == 4 ? 12 : 18;
        int retry = step == 4 ? 1 : 7;
        int rnr = step == 3 ? 1 : 7;
        int minRnr = step == 3 ? 1 : 12;
        connect(qa, qb.qpNum(), gid, 0x1000, 0x2000, timeout, retry, rnr, minRnr);
        connect(qb, qa.qpNum(), gid, 0x2000, 0x1000, timeout, retry, rnr, minRnr);
        boolean bGone = false;
        int wantA = 1, wantB = 0;
        switch (step) {
            case 0 -> post(qa, WrOpcode.RDMA_READ, ma.address() + 40960, 64, a.lkey(), mb.address() + 16384, b.rkey() + 1);
            case 1 -> post(qa, WrOpcode.RDMA_WRITE, ma.address() + 4096, 64, a.lkey(), mb.address() + 65536 - 32, b.rkey());
            case 2 -> {
                RecvWr r = new RecvWr(1);
                r.wrId = 77;
                r.sgl.add(mb.address() + 45056, 256, b.lkey());
                qb.postRecv(r);
                post(qa, WrOpcode.SEND, ma.address() + 4096, 512, a.lkey(), 0, 0);
                wantB = 1;
            }
            case 3 -> post(qa, WrOpcode.SEND, ma.address(), 64, a.lkey(), 0, 0);
            case 4 -> {
                qb.close();
                bGone = true;
                post(qa, WrOpcode.SEND, ma.address(), 64, a.lkey(), 0, 0);
            }
            default -> throw new IllegalStateException();
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        int gotA = 0, gotB = 0;
        while ((gotA < wantA || gotB < wantB) && System.nanoTime() < deadline) {
            gotA += drain(cqA, "A" + step);
            gotB += drain(cqB, "B" + step);
            LockSupport.parkNanos(20_000);
        }
        if (gotA < wantA || gotB < wantB) {
            throw new IllegalStateException("step " + step + ": completions missing");
        }
        qa.query();
        if (!bGone) {
            qb.query();
            qb.close();
        }
        qa.close();
        cqB.close();
        cqA.close();
    }

    private static int drain(Cq cq, String tag) {
        int n = cq.poll(WC);
        for (int i = 0; i < n; i++) {
            SEEN.merge(tag + ":" + WC[i].status(), 1, Integer::sum);
        }
        return n;
    }

    private static void post(Qp qp, WrOpcode op, long addr, int len, int lkey, long raddr, int rkey) throws Exception {
        SendWr w = new SendWr(1);
        w.wrId = 1;
        w.opcode = op;
        w.flags = SendWr.SIGNALED;
        w.sgl.add(addr, len, lkey);
        w.remoteAddr = raddr;
        w.rkey = rkey;
        qp.postSend(w);
    }

    private static void connect(Qp qp, int peerQpn, GidEntry gid, int myPsn, int peerPsn, int timeout, int retry, int rnr, int minRnr)
            throws Exception {
        qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1)
                .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
        qp.modify(new QpAttributes().state(QpState.RTR).av(AddressVector.to(gid.gid(), gid.index()))
                .pathMtu(Mtu.MTU_1024).destQpn(peerQpn).rqPsn(peerPsn).maxDestRdAtomic(1).minRnrTimer(minRnr));
        qp.modify(new QpAttributes().state(QpState.RTS).timeout(timeout).retryCnt(retry)
                .rnrRetry(rnr).sqPsn(myPsn).maxRdAtomic(1));
    }
}
