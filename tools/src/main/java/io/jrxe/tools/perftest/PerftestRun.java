package io.jrxe.tools.perftest;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Access;
import io.jrxe.verbs.AddressVector;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpState;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.WcStatusText;
import io.jrxe.verbs.CompChannel;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.Mr;
import io.jrxe.verbs.Pd;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One perftest run on a connected jrxe device: the buffer, MR, CQs and QPs perftest makes, the handshakes
 * in the order of the test's C program, and the measuring loops (perftest's run_iter_* functions).
 *
 * <p>Memory as perftest lays it out: per QP one area to send from (area i) and one the peer writes into or
 * reads from (area qps + i, whose address the key message carries), each max(size, page) bytes.
 */
final class PerftestRun implements AutoCloseable {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();
    private static final int SYNC_WR = 0;

    private final PerftestCommand.Settings s;
    private final LocalDevice dev;
    private final GidEntry gid;
    private final PerftestConnection conn;
    private final PrintWriter out;
    private final JsonReport json;
    private final Arena arena = Arena.ofShared();
    private final long areaSize;
    private Pd pd;
    private MemorySegment buf;
    private Mr mr;
    private CompChannel sendChannel;
    private CompChannel recvChannel;
    private Cq sendCq;
    private Cq recvCq;
    private final List<Qp> qps = new ArrayList<>();
    private PerftestDest[] mine;
    private PerftestDest[] remote;
    private final WorkCompletion[] wcs = new WorkCompletion[16];

    PerftestRun(PerftestCommand.Settings s, LocalDevice dev, GidEntry gid, PerftestConnection conn, PrintWriter out, JsonReport json) {
        this.s = s;
        this.dev = dev;
        this.gid = gid;
        this.conn = conn;
        this.out = out;
        this.json = json;
        this.areaSize = Math.max(s.maxSize, s.cycleBuffer);
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        json.remoteVersion(conn.remoteVersion());
    }

    void run() throws VerbsException {
        allocate();
        printHeader();
        boolean sendLat = s.verb == Verb.SEND && !s.bw;
        boolean latTwoSided = !s.bw && !sendLat;
        if (latTwoSided) {
            conn.handshake(mine[0], "its QP's keys");
        }
        for (int i = 0; i < s.qps; i++) {
            remote[i] = conn.handshake(mine[i], "its QP's keys");
        }
        if (Gids.isIpv4Mapped(mine[0].gid()) != Gids.isIpv4Mapped(remote[0].gid())) {
            throw new UserError("Found Incompatibility issue with GID types. Please Try to use a different IP version.");
        }
        for (int i = 0; i < s.qps; i++) {
            connect(qps.get(i), mine[i], remote[i]);
        }
        if (s.verb == Verb.SEND) {
            conn.handshake(mine[0], "the sync after connecting");
        }
        for (PerftestDest d : mine) {
            PerftestFormat.address(out, "local", d, s.verb);
            json.local(d);
        }
        for (int i = 0; i < s.qps; i++) {
            remote[i] = conn.handshake(mine[i], "its QP's keys");
            PerftestFormat.address(out, "remote", remote[i], s.verb);
            json.remote(remote[i]);
        }
        if (s.verb != Verb.SEND) {
            conn.handshake(mine[0], "the sync after RTR");
        }
        out.flush();
        if (s.events) {
            sendCq.requestNotify(false);
            recvCq.requestNotify(false);
        }
        if (s.bw) {
            if (s.verb == Verb.SEND) {
                sendBandwidth();
            } else {
                oneSidedBandwidth();
            }
        } else if (s.verb == Verb.WRITE) {
            writeLatency();
        } else if (s.verb == Verb.SEND) {
            sendLatency();
        } else {
            readAtomicLatency();
        }
        out.flush();
    }

    // ---------------------------------------------------------------- resources

    private void allocate() throws VerbsException {
        pd = dev.context().allocPd();
        long bytes = 2L * s.qps * areaSize;
        buf = arena.allocate(bytes, s.cycleBuffer);
        mr = pd.regMr(buf, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC);
        if (s.events) {
            sendChannel = dev.context().createCompChannel();
            recvChannel = dev.context().createCompChannel();
        }
        sendCq = dev.context().createCq(Math.max(16, s.txDepth * s.qps), sendChannel);
        recvCq = dev.context().createCq(Math.max(16, s.rxDepth * s.qps), recvChannel);
        mine = new PerftestDest[s.qps];
        remote = new PerftestDest[s.qps];
        for (int i = 0; i < s.qps; i++) {
            Qp qp = pd.createQp(new QpInitAttributes(QpType.RC, sendCq, recvCq, null,
                    new QpCapabilities(s.txDepth, Math.max(1, s.rxDepth), 1, 1, 0), false));
            qp.modify(new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(s.ibPort)
                    .accessFlags(Access.REMOTE_WRITE | Access.REMOTE_READ | Access.REMOTE_ATOMIC));
            qps.add(qp);
            mine[i] = new PerftestDest(0, s.outReads, qp.qpNum(), ThreadLocalRandom.current().nextInt() & 0xFFFFFF, mr.rkey(),
                    buf.address() + (s.qps + i) * areaSize, gid.gid(), 0);
        }
    }

    /** ctx_connect for RC: RTR towards the peer's QP (hop limit 255, as perftest), then RTS. */
    private void connect(Qp qp, PerftestDest me, PerftestDest peer) throws VerbsException {
        qp.modify(new QpAttributes().state(QpState.RTR)
                .av(new AddressVector(peer.gid(), s.gidIndex, 0xFF, 0, 0, s.sl, s.ibPort))
                .pathMtu(s.mtu).destQpn(peer.qpn()).rqPsn(peer.psn())
                .maxDestRdAtomic(me.outReads()).minRnrTimer(12));
        qp.modify(new QpAttributes().state(QpState.RTS).sqPsn(me.psn()).timeout(s.qpTimeout).retryCnt(7).rnrRetry(7)
                .maxRdAtomic(Math.max(1, Math.min(peer.outReads(), dev.context().queryDevice().maxQpRdAtom()))));
    }

    private long localArea(int qp) {
        return buf.address() + qp * areaSize;
    }

    private long remoteArea(int qp) {
        return buf.address() + (s.qps + qp) * areaSize;
    }

    private long offsetOf(long address) {
        return address - buf.address();
    }

    // ---------------------------------------------------------------- header

    private void printHeader() {
        out.println(PerftestFormat.RESULT_LINE);
        StringBuilder title = new StringBuilder("                    ").append(s.verb.title()).append(' ');
        if (s.atomicType != null) {
            title.append(s.atomicType).append(' ');
        }
        title.append(s.bw ? "BW " : "Latency ").append("Test");
        out.println(title);
        if (s.events) {
            out.println(" Test with events. Using " + s.deviceName + "_comp0");
        }
        out.printf(" Dual-port       : %s\t\tDevice         : %s%n", "OFF", s.deviceName);
        out.printf(" Number of qps   : %d\t\tTransport type : %s%n", s.qps, "IB");
        out.printf(" Connection type : %s\t\tUsing SRQ      : %s%n", "RC", "OFF");
        out.printf(" PCIe relax order: %s\t\tLock-free      : %s%n", "OFF", "OFF");
        out.printf(" ibv_wr* API     : %s\t\tUsing Enhanced Reorder      : %s%n", "OFF", "OFF");
        if (s.client || !s.bw) {
            out.printf(" TX depth        : %d%n", s.txDepth);
        }
        if (s.verb.receives() && (!s.client || !s.bw)) {
            out.printf(" RX depth        : %d%n", s.rxDepth);
        }
        if (s.bw) {
            out.printf(" CQ Moderation   : %d%n", s.cqMod);
            out.printf(" CQE Poll Batch  : Dynamic%n");
        }
        out.printf(" Mtu             : %d[B]%n", s.mtu.bytes());
        out.printf(" Link type       : Ethernet%n");
        out.printf(" GID index       : %d%n", s.gidIndex);
        if (s.verb.readLike()) {
            out.printf(" Outstand reads  : %d%n", s.outReads);
        } else {
            out.printf(" Max inline data : %d[B]%n", s.inline);
        }
        out.printf(" rdma_cm QPs\t : OFF%n");
        out.printf(" Data ex. method : Ethernet%n");
        out.println(PerftestFormat.RESULT_LINE);
    }

    private void bwTableHeader() {
        out.println(PerftestFormat.RESULT_LINE);
        out.println(s.gbits ? PerftestFormat.BW_HEADER_GB : PerftestFormat.BW_HEADER_MB);
    }

    private void latTableHeader() {
        out.println(PerftestFormat.RESULT_LINE);
        out.println(s.durationSeconds > 0 ? PerftestFormat.LAT_DURATION_HEADER : PerftestFormat.LAT_HEADER);
    }

    private void bwRow(BwReport r) {
        out.println(PerftestFormat.bwRow(r, s.gbits));
        out.flush();
        json.bw(r);
    }

    /** The sizes a run covers: one, or with -a every power of two from 2 to 2^23. */
    private long[] sizes() {
        if (!s.all) {
            return new long[] {s.size};
        }
        long[] sizes = new long[23];
        for (int i = 1; i < 24; i++) {
            sizes[i - 1] = 1L << i;
        }
        return sizes;
    }

    // ---------------------------------------------------------------- bandwidth

    /** write_bw, read_bw and atomic_bw: the client measures, the server waits for its report. */
    private void oneSidedBandwidth() throws VerbsException {
        bwTableHeader();
        BwReport zero = new BwReport(0, 0, 0, 0, 0);
        if (!s.client) {
            conn.handshakeUnbounded(mine[0], "the end of the client's test");
            BwReport theirs = conn.exchangeBwReport(zero, false);
            bwRow(theirs);
            conn.handshake(mine[0], "the closing handshake");
            out.println(PerftestFormat.RESULT_LINE);
            return;
        }
        BwReport last = zero;
        for (long size : sizes()) {
            last = clientBandwidth(size);
            bwRow(last);
        }
        out.println(PerftestFormat.RESULT_LINE);
        conn.handshake(mine[0], "the end of the test");
        conn.exchangeBwReport(last, false);
        conn.handshake(mine[0], "the closing handshake");
    }

    /** send_bw: the server receives and reports too; both sides sync before each size. */
    private void sendBandwidth() throws VerbsException {
        bwTableHeader();
        long[] sizes = sizes();
        for (int k = 0; k < sizes.length; k++) {
            long size = sizes[k];
            if (!s.client) {
                postReceives(size, s.rxDepth);
            }
            conn.handshake(mine[0], "the sync before the test");
            bwRow(s.client ? clientBandwidth(size) : serverBandwidth(size));
            if (s.all) {
                conn.handshake(mine[0], "the sync after size " + size);
            }
        }
        out.println(PerftestFormat.RESULT_LINE);
        conn.handshake(mine[0], "the closing handshake");
    }

    private SendWr sendWr(int qp, long size) {
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
        return wr;
    }

    /** perftest's run_iter_bw: keep tx_depth work requests in flight on every QP, a completion every cq_mod. */
    private BwReport clientBandwidth(long size) throws VerbsException {
        int n = s.qps;
        boolean duration = s.durationSeconds > 0;
        long iters = duration ? Long.MAX_VALUE : s.iters;
        long total = duration ? Long.MAX_VALUE : iters * n;
        boolean peak = !s.noPeak;
        long[] tposted = peak ? new long[(int) total] : null;
        long[] tcompleted = peak ? new long[(int) total] : null;
        long[] scnt = new long[n];
        long[] ccnt = new long[n];
        SendWr[] wr = new SendWr[n];
        for (int q = 0; q < n; q++) {
            wr[q] = sendWr(q, size);
        }
        CompletionWaiter waiter = new CompletionWaiter(sendCq, sendChannel, s.timeoutMillis, "the completion of a "
                + s.verb.title() + " (is the server still running?)");
        // The index of each signaled WR still in flight, per QP: its completion completes every WR up to it.
        long[][] signaledAt = new long[n][s.txDepth + 1];
        int[] head = new int[n];
        int[] tail = new int[n];
        boolean[] done = new boolean[n];
        long start = System.nanoTime();
        SampleWindow window = duration ? SampleWindow.from(start, s.durationSeconds, s.marginSeconds) : null;
        long totscnt = 0;
        long totccnt = 0;
        while (true) {
            boolean timeUp = duration && window.observe(System.nanoTime());
            boolean allDone = true;
            for (int q = 0; q < n; q++) {
                while (!done[q] && scnt[q] < iters && scnt[q] - ccnt[q] < s.txDepth) {
                    // With -D the first WR posted after the time is up is the last, and signaled, so that all complete.
                    boolean last = timeUp || scnt[q] == iters - 1;
                    boolean signaled = last || scnt[q] % s.cqMod == s.cqMod - 1;
                    wr[q].flags = signaled ? SendWr.SIGNALED : 0;
                    if (peak) {
                        tposted[(int) totscnt] = System.nanoTime();
                    }
                    qps.get(q).postSend(wr[q]);
                    if (signaled) {
                        signaledAt[q][tail[q]] = scnt[q];
                        tail[q] = (tail[q] + 1) % signaledAt[q].length;
                    }
                    scnt[q]++;
                    totscnt++;
                    done[q] = last;
                }
                allDone &= done[q];
            }
            if (allDone && totccnt == totscnt) {
                break;
            }
            // Every QP has its window full (or is done): wait for completions, napping while a queue of large
            // messages drains, then spinning briefly and yielding the CPU to the NIC threads.
            int got = waiter.await(wcs, RefillPace.napNanos(totscnt - totccnt, size));
            for (int i = 0; i < got; i++) {
                WorkCompletion c = wcs[i];
                check(c, "send", totscnt, totccnt);
                int q = (int) c.wrId();
                long upTo = signaledAt[q][head[q]] + 1;
                head[q] = (head[q] + 1) % signaledAt[q].length;
                totccnt += upTo - ccnt[q];
                if (duration) {
                    window.count(upTo - ccnt[q]);
                }
                ccnt[q] = upTo;
                if (peak) {
                    tcompleted[(int) totccnt - 1] = System.nanoTime();
                }
            }
        }
        long finish = System.nanoTime();
        long count = duration ? window.counted() : total;
        double seconds = duration ? window.seconds(finish) : (finish - start) / 1e9;
        double factor = s.gbits ? 125_000_000.0 : 0x100000;
        double bwAvg = seconds > 0 ? size * (double) count / seconds / factor : 0;
        double rate = seconds > 0 ? count / seconds / 1e6 : 0;
        double bwPeak = 0;
        if (peak) {
            bwPeak = size * 1e9 / (bestNanosPerMessage(tposted, tcompleted, (int) total, s.cqMod) * factor);
            double avgFromArrays = size * (double) count * 1e9 / ((tcompleted[(int) total - 1] - tposted[0]) * factor);
            bwAvg = avgFromArrays;
            rate = count * 1e9 / ((tcompleted[(int) total - 1] - tposted[0]) * 1e6);
        }
        return new BwReport(size, count, bwPeak, bwAvg, rate);
    }

    /**
     * perftest's peak: the least time per message over every run of messages from one post to a completion
     * (completions are only known every cq_mod messages, and at the last).
     */
    static double bestNanosPerMessage(long[] tposted, long[] tcompleted, int total, int cqMod) {
        double best = tcompleted[total - 1] - tposted[0];
        for (int i = 0; i < total; i++) {
            int first = ((i + 1 + cqMod - 1) / cqMod) * cqMod - 1;
            for (int j = first; j < total; j += cqMod) {
                double t = (double) (tcompleted[j] - tposted[i]) / (j - i + 1);
                if (t < best) {
                    best = t;
                }
            }
            if (total % cqMod != 0) {
                int j = total - 1;
                double t = (double) (tcompleted[j] - tposted[i]) / (j - i + 1);
                if (t < best) {
                    best = t;
                }
            }
        }
        return Math.max(best, 1);
    }

    private void postReceives(long size, int perQp) throws VerbsException {
        for (int q = 0; q < s.qps; q++) {
            RecvWr r = recvWr(q, size);
            for (int i = 0; i < perQp; i++) {
                qps.get(q).postRecv(r);
            }
        }
    }

    private RecvWr recvWr(int q, long size) {
        RecvWr r = new RecvWr(1);
        r.wrId = q;
        r.sgl.add(remoteArea(q), (int) size, mr.lkey());
        return r;
    }

    /** perftest's run_iter_bw_server: count the receives (reposting while more are due); no peak. */
    private BwReport serverBandwidth(long size) throws VerbsException {
        int n = s.qps;
        boolean duration = s.durationSeconds > 0;
        long iters = duration ? Long.MAX_VALUE : s.iters;
        long total = duration ? Long.MAX_VALUE : iters * n;
        long[] posted = new long[n];
        RecvWr[] r = new RecvWr[n];
        for (int q = 0; q < n; q++) {
            posted[q] = s.rxDepth;
            r[q] = recvWr(q, size);
        }
        CompletionWaiter waiter = new CompletionWaiter(recvCq, recvChannel, s.timeoutMillis,
                "the next message from the client (is it still running?)");
        long first = 0;
        long rcnt = 0;
        SampleWindow window = null;
        int idleSpins = 0;
        while (rcnt < total) {
            int got;
            if (duration && rcnt > 0) {
                if (window.observe(System.nanoTime())) {
                    break;
                }
                got = recvCq.poll(wcs);
                if (got == 0) {
                    // Spin, then yield and park as the waiter does: a bare spin here took a core from the NIC
                    // threads that deliver the messages (on 2 cores, a fifth of the message rate).
                    idleSpins++;
                    CompletionWaiter.idle(idleSpins, 0, Long.MAX_VALUE);
                    continue;
                }
                idleSpins = 0;
            } else {
                got = waiter.await(wcs);
            }
            for (int i = 0; i < got; i++) {
                WorkCompletion c = wcs[i];
                check(c, "receive", rcnt, rcnt);
                if (rcnt == 0) {
                    first = System.nanoTime();
                    window = duration ? SampleWindow.from(first, s.durationSeconds, s.marginSeconds) : null;
                }
                rcnt++;
                if (duration) {
                    window.count(1);
                }
                int q = (int) c.wrId();
                if (duration || posted[q] + 1 <= iters) {
                    qps.get(q).postRecv(r[q]);
                    posted[q]++;
                }
            }
        }
        // With -D the server's DURATION seconds start at the first message, and it counts what came inside their
        // sample window; what the client still sends lands in the receives already posted.
        long now = System.nanoTime();
        long count = duration ? window.counted() : rcnt;
        double seconds = duration ? window.seconds(now) : (now - first) / 1e9;
        double factor = s.gbits ? 125_000_000.0 : 0x100000;
        return seconds > 0 ? new BwReport(size, count, 0, size * (double) count / seconds / factor, count / seconds / 1e6)
                : new BwReport(size, count, 0, 0, 0);
    }

    // ---------------------------------------------------------------- latency

    /** The -D run's sample window from {@code start}, or null for a run of ITERS. */
    private SampleWindow window(long start) {
        return s.durationSeconds > 0 ? SampleWindow.from(start, s.durationSeconds, s.marginSeconds) : null;
    }

    /** With -D (a window) the report is of the sample window; else of every exchange's time. */
    private void printLat(long size, long[] tposted, int iters, int rttFactor, SampleWindow window) {
        if (window != null) {
            long n = window.counted();
            double seconds = window.seconds(System.nanoTime());
            double avg = n > 0 ? seconds * 1e6 / n / rttFactor : 0;
            double tps = seconds > 0 ? n / seconds : 0;
            out.println(PerftestFormat.latDurationRow(size, n, avg, tps));
            json.latDuration(size, n, avg, tps);
            return;
        }
        if (s.unsorted) {
            out.println("#, usec");
            double[] d = LatencyStats.unsorted(tposted, iters, rttFactor);
            for (int i = 0; i < d.length; i++) {
                out.printf(Locale.ROOT, "%d, %s%n", i + 1, g(d[i]));
            }
        }
        LatencyStats stats = LatencyStats.of(size, tposted, iters, rttFactor);
        if (s.histogram) {
            out.println("#, usec");
            for (int i = 0; i < stats.sortedMicros().length - 2; i++) {
                out.printf(Locale.ROOT, "%d, %s%n", i + 1, g(stats.sortedMicros()[i]));
            }
        }
        if (s.unsorted || s.histogram) {
            latTableHeader();
        }
        out.println(PerftestFormat.latRow(stats));
        out.flush();
        json.lat(stats);
    }

    /** C's %g. */
    private static String g(double v) {
        String t = String.format(Locale.ROOT, "%.6g", v);
        if (t.contains("e")) {
            return t;
        }
        return t.contains(".") ? t.replaceAll("0+$", "").replaceAll("\\.$", "") : t;
    }

    private int latIters() {
        return s.durationSeconds > 0 ? Integer.MAX_VALUE : (int) Math.min(s.iters, Integer.MAX_VALUE - 1);
    }

    /**
     * write_lat (run_iter_lat_write): each side writes `size` bytes into the other's buffer; the last byte
     * carries the message number, which the receiver polls for in memory before it writes back. The server
     * writes first.
     */
    private void writeLatency() throws VerbsException {
        latTableHeader();
        for (long size : sizes()) {
            int iters = latIters();
            long[] tposted = s.durationSeconds > 0 ? null : new long[iters];
            SendWr wr = sendWr(0, size);
            long postByte = offsetOf(localArea(0)) + size - 1;
            long pollByte = offsetOf(remoteArea(0)) + size - 1;
            CompletionWaiter waiter = CompletionWaiter.forLatency(sendCq, null, s.timeoutMillis, "the completion of an RDMA write");
            long start = System.nanoTime();
            SampleWindow window = window(start);
            long scnt = 0;
            long ccnt = 0;
            long rcnt = 0;
            boolean server = !s.client;
            while (scnt < iters || ccnt < iters || rcnt < iters) {
                if (rcnt < iters && !(scnt < 1 && server)) {
                    rcnt++;
                    byte expected = (byte) rcnt;
                    long since = System.nanoTime();
                    int spins = 0;
                    boolean stop = false;
                    while ((byte) BYTE.getVolatile(buf, pollByte) != expected) {
                        if (window != null && window.observe(System.nanoTime())) {
                            stop = true;
                            break;
                        }
                        if (CompletionWaiter.busyIdle(++spins, since, s.timeoutMillis * 1_000_000L)) {
                            throw new UserError(String.format("no RDMA write from the peer for %d ms while waiting for message %d: "
                                    + "the peer stopped answering", s.timeoutMillis, rcnt));
                        }
                    }
                    if (stop) {
                        rcnt--;
                        break;
                    }
                    if (window != null) {
                        window.count(1);
                    }
                }
                if (window != null && window.observe(System.nanoTime())) {
                    break;
                }
                if (scnt < iters) {
                    if (tposted != null) {
                        tposted[(int) scnt] = System.nanoTime();
                    }
                    BYTE.setVolatile(buf, postByte, (byte) ++scnt);
                    qps.get(0).postSend(wr);
                }
                if (ccnt < iters) {
                    if (waiter.await(wcs) > 0) {
                        check(wcs[0], "RDMA write", scnt, ccnt);
                        ccnt++;
                    }
                }
            }
            printLat(size, tposted, iters, 2, window);
        }
        out.println(PerftestFormat.RESULT_LINE);
    }

    /** read_lat and atomic_lat (run_iter_lat): the client posts one, waits for its completion, again. */
    private void readAtomicLatency() throws VerbsException {
        if (!s.client) {
            conn.handshakeUnbounded(mine[0], "the end of the client's test");
            out.println(PerftestFormat.RESULT_LINE);
            return;
        }
        latTableHeader();
        for (long size : sizes()) {
            int iters = latIters();
            long[] tposted = s.durationSeconds > 0 ? null : new long[iters];
            SendWr wr = sendWr(0, size);
            CompletionWaiter waiter = CompletionWaiter.forLatency(sendCq, sendChannel, s.timeoutMillis,
                    "the completion of an " + s.verb.title());
            long start = System.nanoTime();
            SampleWindow window = window(start);
            long scnt = 0;
            while (scnt < iters && (window == null || !window.observe(System.nanoTime()))) {
                if (tposted != null) {
                    tposted[(int) scnt] = System.nanoTime();
                }
                scnt++;
                qps.get(0).postSend(wr);
                int got;
                do {
                    got = waiter.await(wcs);
                } while (got == 0);
                check(wcs[0], s.verb.title(), scnt, scnt - 1);
                if (window != null) {
                    window.count(1);
                }
            }
            printLat(size, tposted, iters, 1, window);
        }
        conn.handshake(mine[0], "the closing handshake");
        out.println(PerftestFormat.RESULT_LINE);
    }

    /** send_lat (run_iter_lat_send): the client sends first; each side answers a receive with a send. */
    private void sendLatency() throws VerbsException {
        latTableHeader();
        for (long size : sizes()) {
            int iters = latIters();
            int rxDepth = s.rxDepth;
            postReceives(size, rxDepth);
            conn.handshake(mine[0], "the sync before the test");
            long[] tposted = s.durationSeconds > 0 ? null : new long[iters];
            SendWr wr = sendWr(0, size);
            RecvWr r = recvWr(0, size);
            CompletionWaiter recvWaiter = CompletionWaiter.forLatency(recvCq, recvChannel, s.timeoutMillis,
                    "the next message from the peer");
            CompletionWaiter sendWaiter = CompletionWaiter.forLatency(sendCq, sendChannel, s.timeoutMillis, "a send completion");
            long start = System.nanoTime();
            SampleWindow window = window(start);
            long scnt = 0;
            long rcnt = 0;
            long posted = rxDepth;
            boolean client = s.client;
            while (scnt < iters || rcnt < iters) {
                if (window != null && window.observe(System.nanoTime())) {
                    break;
                }
                if (rcnt < iters && !(scnt < 1 && client)) {
                    int got;
                    do {
                        got = recvWaiter.await(wcs);
                    } while (got == 0);
                    for (int i = 0; i < got; i++) {
                        check(wcs[i], "receive", scnt, rcnt);
                        rcnt++;
                        if (window != null) {
                            window.count(1);
                        }
                        if (posted < iters) {
                            qps.get(0).postRecv(r);
                            posted++;
                        }
                    }
                }
                if (scnt < iters) {
                    if (tposted != null) {
                        tposted[(int) scnt] = System.nanoTime();
                    }
                    scnt++;
                    wr.flags = SendWr.SIGNALED;
                    qps.get(0).postSend(wr);
                    int got;
                    do {
                        got = sendWaiter.await(wcs);
                    } while (got == 0);
                    check(wcs[0], "send", scnt, scnt - 1);
                }
            }
            printLat(size, tposted, iters, 2, window);
        }
        out.println(PerftestFormat.RESULT_LINE);
        conn.handshake(mine[0], "the closing handshake");
    }

    private void check(WorkCompletion c, String what, long scnt, long ccnt) {
        if (c.status() != WcStatus.SUCCESS) {
            throw new UserError(String.format(Locale.ROOT, "Completion with error at %s: status %s (%d, %s), vendor error %d "
                    + "(after %d posted, %d completed)", what, c.status(), c.status().verbsValue(), WcStatusText.of(c.status()),
                    c.vendorErr(), scnt, ccnt));
        }
    }

    @Override
    public void close() {
        for (Qp qp : qps) {
            try {
                qp.close();
            } catch (VerbsException e) {
                // the device goes next with all it holds
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
