package io.jrxe.tools.perftest;

import io.jrxe.verbs.Qp;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;

import java.util.List;

/**
 * The sending half of perftest's bandwidth loops (run_iter_bw, and run_iter_bi with -b): keep tx_depth work
 * requests in flight on every QP, a completion asked for every cq_mod of them and for the last, and the times
 * of the posts and completions for the peak and the average.
 *
 * <p>With -l each post is a chain of post_list work requests, in which every cq_mod-th is signaled (so the
 * chain's last is); the times are then kept per chain, as perftest keeps them.
 */
final class SendSide {
    private final PerftestSettings s;
    private final List<Qp> qps;
    private final int n;
    private final int chain;
    private final long size;
    /** Per QP: Long.MAX_VALUE with -D, where the time ends the test. */
    private final long iters;
    private final long total;
    private final boolean peak;
    private final long[] tposted;
    private final long[] tcompleted;
    private final SendWr[] heads;
    private final long[] scnt;
    private final long[] ccnt;
    /** The index of each signaled WR still in flight, per QP: its completion completes every WR up to it. */
    private final long[][] signaledAt;
    private final int[] head;
    private final int[] tail;
    private final boolean[] done;
    /** Per QP, when its last work request completed (0 until then). */
    private final long[] finishedAt;
    private long totscnt;
    private long totccnt;

    SendSide(PerftestSettings s, PerftestResources res, long size) {
        this.s = s;
        this.qps = res.qps;
        this.n = s.qps;
        this.chain = s.postList;
        this.size = size;
        boolean duration = s.durationSeconds > 0;
        this.iters = duration ? Long.MAX_VALUE : s.iters;
        this.total = duration ? Long.MAX_VALUE : iters * n;
        this.peak = !s.noPeak;
        this.tposted = peak ? new long[(int) total] : null;
        this.tcompleted = peak ? new long[(int) total] : null;
        this.heads = new SendWr[n];
        for (int q = 0; q < n; q++) {
            heads[q] = res.sendChain(q, size);
        }
        this.scnt = new long[n];
        this.ccnt = new long[n];
        this.signaledAt = new long[n][s.txDepth + 1];
        this.head = new int[n];
        this.tail = new int[n];
        this.done = new boolean[n];
        this.finishedAt = new long[n];
    }

    /**
     * Posts on every QP while its window has room. With -D, {@code timeUp} makes the next post the last (a single
     * WR is then signaled so that all complete; a chain always ends signaled).
     */
    void fill(boolean timeUp) throws VerbsException {
        for (int q = 0; q < n; q++) {
            while (!done[q] && scnt[q] < iters && scnt[q] - ccnt[q] + chain <= s.txDepth) {
                if (chain == 1) {
                    boolean last = timeUp || scnt[q] == iters - 1;
                    boolean signaled = last || scnt[q] % s.cqMod == s.cqMod - 1;
                    heads[q].flags = signaled ? SendWr.SIGNALED : 0;
                    if (peak) {
                        tposted[(int) totscnt] = System.nanoTime();
                    }
                    qps.get(q).postSend(heads[q]);
                    if (signaled) {
                        signaled(q, scnt[q]);
                    }
                    scnt[q]++;
                    totscnt++;
                    done[q] = last;
                } else {
                    if (timeUp) {
                        done[q] = true;
                        break;
                    }
                    if (peak) {
                        tposted[(int) totscnt] = System.nanoTime();
                    }
                    qps.get(q).postSend(heads[q]);
                    for (int j = s.cqMod - 1; j < chain; j += s.cqMod) {
                        signaled(q, scnt[q] + j);
                    }
                    scnt[q] += chain;
                    totscnt += chain;
                    done[q] = scnt[q] >= iters;
                }
            }
        }
    }

    private void signaled(int q, long index) {
        signaledAt[q][tail[q]] = index;
        tail[q] = (tail[q] + 1) % signaledAt[q].length;
    }

    /** Whether every QP posted its last work request. */
    boolean allPosted() {
        for (int q = 0; q < n; q++) {
            if (!done[q] && scnt[q] < iters) {
                return false;
            }
        }
        return true;
    }

    /** Everything posted has completed. */
    boolean finished() {
        return allPosted() && totccnt == totscnt;
    }

    long outstanding() {
        return totscnt - totccnt;
    }

    long posted() {
        return totscnt;
    }

    long completedCount() {
        return totccnt;
    }

    /** A send completion: it completes its QP's work requests up to the signaled one; returns how many. */
    long completed(WorkCompletion c) {
        PerftestResources.check(c, "send", totscnt, totccnt);
        int q = (int) c.wrId();
        long upTo = signaledAt[q][head[q]] + 1;
        head[q] = (head[q] + 1) % signaledAt[q].length;
        long k = upTo - ccnt[q];
        totccnt += k;
        ccnt[q] = upTo;
        if (upTo == iters) {
            finishedAt[q] = System.nanoTime();
        }
        if (peak) {
            tcompleted[(int) totccnt - 1] = System.nanoTime();
        }
        return k;
    }

    /**
     * The report of the sends (perftest's print_report_bw): the average over every message, from the first post to
     * the last completion, or with -D over what {@code window} counted; the peak unless -N.
     */
    BwReport report(long start, long finish, SampleWindow window) {
        long count = window != null ? window.counted() : total;
        double seconds = window != null ? window.seconds(finish) : (finish - start) / 1e9;
        double factor = s.gbits ? 125_000_000.0 : 0x100000;
        double bwAvg = seconds > 0 ? size * (double) count / seconds / factor : 0;
        double rate = seconds > 0 ? count / seconds / 1e6 : 0;
        double bwPeak = 0;
        if (peak) {
            bwPeak = size * 1e9 / (PeakRate.bestNanosPerMessage(tposted, tcompleted, (int) total, s.cqMod, chain) * factor);
            long span = tcompleted[(int) total - 1] - tposted[0];
            bwAvg = size * (double) count * 1e9 / (span * factor);
            rate = count * 1e9 / (span * 1e6);
        }
        return new BwReport(size, count, bwPeak, bwAvg, rate);
    }

    /**
     * The bandwidth of each QP in MiB/s (or Gb/s), from {@code start} to its last completion, sorted from the slowest:
     * whether one QP starves while the others move.
     */
    double[] perQpBandwidth(long start) {
        double factor = s.gbits ? 125_000_000.0 : 0x100000;
        double[] bw = new double[n];
        for (int q = 0; q < n; q++) {
            double seconds = (finishedAt[q] - start) / 1e9;
            bw[q] = seconds > 0 ? size * (double) iters / seconds / factor : 0;
        }
        java.util.Arrays.sort(bw);
        return bw;
    }
}
