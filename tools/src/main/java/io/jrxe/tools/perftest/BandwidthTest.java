package io.jrxe.tools.perftest;

import io.jrxe.verbs.RecvWr;
import io.jrxe.rnic.queue.SendWqe;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;

/**
 * The bandwidth tests (perftest's run_iter_bw and run_iter_bw_server) and their table: write_bw, read_bw and
 * atomic_bw measured by the client alone, send_bw by both sides.
 */
final class BandwidthTest extends MeasuringTest {
    private final Cq recvCq;

    BandwidthTest(PerftestCommand.Settings s, PerftestResources res, PerftestConnection conn, PrintWriter out, JsonReport json) {
        super(s, res, conn, out, json);
        this.recvCq = res.recvCq;
    }

    @Override
    void run() throws VerbsException {
        if (s.verb == Verb.SEND) {
            sendBandwidth();
        } else {
            oneSidedBandwidth();
        }
    }

    private void bwTableHeader() {
        out.println(PerftestFormat.RESULT_LINE);
        out.println(s.gbits ? PerftestFormat.BW_HEADER_GB : PerftestFormat.BW_HEADER_MB);
    }

    private void bwRow(BwReport r) {
        out.println(PerftestFormat.bwRow(r, s.gbits));
        out.flush();
        json.bw(r);
    }

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
        for (long size : s.sizes()) {
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
        long[] sizes = s.sizes();
        for (int k = 0; k < sizes.length; k++) {
            long size = sizes[k];
            if (!s.client) {
                res.postReceives(size, s.rxDepth);
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
            wr[q] = res.sendWr(q, size);
        }
        CompletionWaiter waiter = new CompletionWaiter(res.sendCq, res.sendChannel, s.timeoutMillis, "the completion of a "
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
                PerftestResources.check(c, "send", totscnt, totccnt);
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
            r[q] = res.recvWr(q, size);
        }
        CompletionWaiter waiter = new CompletionWaiter(res.recvCq, res.recvChannel, s.timeoutMillis,
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
                PerftestResources.check(c, "receive", rcnt, rcnt);
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
}
