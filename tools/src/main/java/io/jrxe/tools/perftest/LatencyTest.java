package io.jrxe.tools.perftest;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.tools.UserError;
import io.jrxe.verbs.idle.LatencyIdle;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.JitSettle;
import io.jrxe.tools.common.LatencyBreakdown;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;

import java.io.PrintWriter;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.Locale;

/**
 * The latency tests (perftest's run_iter_lat_write, run_iter_lat and run_iter_lat_send) and their table:
 * write_lat and send_lat ping-pong between both sides; read_lat and atomic_lat are measured by the client alone.
 */
final class LatencyTest extends MeasuringTest {
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    private final MemorySegment buf;
    private final LatencyBreakdown breakdown;
    /** How {@link #awaitPeerWrite} waits between its looks at memory. */
    private final LatencyIdle peerWait = new LatencyIdle();

    LatencyTest(PerftestSettings s, PerftestResources res, PerftestConnection conn, PrintWriter out, JsonReport json,
                PerftestJsonFile jsonFile) {
        super(s, res, conn, out, json, jsonFile);
        this.buf = res.buf;
        this.breakdown = s.breakdown;
    }

    private void sendPolled() {
        if (breakdown != null) {
            breakdown.sendPolled();
        }
    }

    @Override
    void run() throws VerbsException {
        if (s.verb == Verb.WRITE) {
            writeLatency();
        } else if (s.verb == Verb.SEND) {
            sendLatency();
        } else {
            readAtomicLatency();
        }
    }

    private void latTableHeader() {
        out.println(PerftestFormat.RESULT_LINE);
        out.println(s.durationSeconds > 0 ? PerftestFormat.LAT_DURATION_HEADER : PerftestFormat.LAT_HEADER);
    }

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
            jsonFile.latDuration(size, n, avg, tps);
            return;
        }
        if (s.unsorted) {
            out.println("#, usec");
            double[] d = LatencyStats.unsorted(tposted, iters, rttFactor);
            for (int i = 0; i < d.length; i++) {
                out.printf(Locale.ROOT, "%d, %s%n", i + 1, PerftestFormat.g(d[i]));
            }
        }
        LatencyStats stats = LatencyStats.of(size, tposted, iters, rttFactor);
        if (s.histogram) {
            out.println("#, usec");
            for (int i = 0; i < stats.sortedMicros().length - 2; i++) {
                out.printf(Locale.ROOT, "%d, %s%n", i + 1, PerftestFormat.g(stats.sortedMicros()[i]));
            }
        }
        if (s.unsorted || s.histogram) {
            latTableHeader();
        }
        out.println(PerftestFormat.latRow(stats));
        out.flush();
        json.lat(stats);
        jsonFile.lat(stats);
    }

    private int latIters() {
        return s.durationSeconds > 0 ? Integer.MAX_VALUE : (int) Math.min(s.iters, Integer.MAX_VALUE - 1);
    }

    /** Calls of each per-message method in {@link #warmLoop}: well past C1's threshold of 200 invocations. */
    private static final int WARM_CALLS = 2_000;

    /**
     * A default run is 1,000 messages, short enough that C1 would compile the loop's own methods during it (the
     * memory poll and its VarHandle access, the store, the NIC's progress, the idle step): about 20 compilations
     * taking 9 ms of a compiler thread while the test's spinning threads hold both cores of a 2-core machine, so
     * that single messages take 0.4-2 ms. Here they run with nothing at stake first: the poll on a byte that
     * already holds what it waits for, the store of the value a byte already holds, the NIC's turn (its work is
     * real, whoever runs it), the idle step's spin and yield, and the check of a completion that succeeded; then
     * the JIT is given time to finish compiling them.
     */
    @Override
    void warmLoop() {
        long at = res.offsetOf(res.localArea(0));
        WorkCompletion succeeded = new WorkCompletion();
        for (int i = 0; i < WARM_CALLS; i++) {
            byte b = (byte) BYTE.getVolatile(buf, at);
            BYTE.setVolatile(buf, at, b);
            awaitPeerWrite(at, b, null);
            res.progress();
            peerWait.idle(i & 0x7F, 0, Long.MAX_VALUE);
            sendPolled();
            PerftestResources.check(succeeded, "the warm-up", i, i);
        }
        JitSettle.await();
    }

    /**
     * Spins until the peer's write of message {@code rcnt} lands in the last byte of the area; false when the
     * duration's window closed first. A method of its own, called once per message, so that C1 compiles it after a
     * few hundred messages: inlined in writeLatency's loop, the spin would run in the interpreter until its
     * back-edges reach the on-stack-replacement threshold, about half of a 20,000-message run.
     */
    private boolean awaitPeerWrite(long pollByte, long rcnt, SampleWindow window) {
        byte expected = (byte) rcnt;
        long since = System.nanoTime();
        int spins = 0;
        while ((byte) BYTE.getVolatile(buf, pollByte) != expected) {
            if (res.progress() > 0) {
                continue; // this thread runs the NIC (--progress invoker): the write may have landed
            }
            if (window != null && window.observe(System.nanoTime())) {
                return false;
            }
            if (peerWait.idle(++spins, since, s.timeoutMillis * 1_000_000L)) {
                throw new UserError(String.format("no RDMA write from the peer for %d ms while waiting for message %d: "
                        + "the peer stopped answering", s.timeoutMillis, rcnt));
            }
        }
        return true;
    }

    /**
     * write_lat (run_iter_lat_write): each side writes `size` bytes into the other's buffer; the last byte
     * carries the message number, which the receiver polls for in memory before it writes back. The server
     * writes first.
     */
    private void writeLatency() throws VerbsException {
        latTableHeader();
        for (long size : s.sizes()) {
            int iters = latIters();
            long[] tposted = s.durationSeconds > 0 ? null : new long[iters];
            SendWr wr = res.sendWr(0, size);
            long postByte = res.offsetOf(res.localArea(0)) + size - 1;
            long pollByte = res.offsetOf(res.remoteArea(0)) + size - 1;
            CompletionWaiter waiter = CompletionWaiter.forLatency(res.sendCq, null, s.timeoutMillis, "the completion of an RDMA write");
            long start = System.nanoTime();
            SampleWindow window = window(start);
            long scnt = 0;
            long ccnt = 0;
            long rcnt = 0;
            boolean server = !s.client;
            while (scnt < iters || ccnt < iters || rcnt < iters) {
                if (rcnt < iters && !(scnt < 1 && server)) {
                    rcnt++;
                    if (!awaitPeerWrite(pollByte, rcnt, window)) {
                        rcnt--;
                        break;
                    }
                    if (breakdown != null) {
                        breakdown.writeSeen();
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
                        sendPolled();
                        PerftestResources.check(wcs[0], "RDMA write", scnt, ccnt);
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
        for (long size : s.sizes()) {
            int iters = latIters();
            long[] tposted = s.durationSeconds > 0 ? null : new long[iters];
            SendWr wr = res.sendWr(0, size);
            CompletionWaiter waiter = CompletionWaiter.forLatency(res.sendCq, res.sendChannel, s.timeoutMillis,
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
                sendPolled();
                PerftestResources.check(wcs[0], s.verb.title(), scnt, scnt - 1);
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
        for (long size : s.sizes()) {
            int iters = latIters();
            res.postReceives(size);
            conn.handshake(mine[0], "the sync before the test");
            long[] tposted = s.durationSeconds > 0 ? null : new long[iters];
            SendWr wr = res.sendWr(0, size);
            RecvWr r = res.recvWr(0, size);
            CompletionWaiter recvWaiter = CompletionWaiter.forLatency(res.recvCq, res.recvChannel, s.timeoutMillis,
                    "the next message from the peer");
            CompletionWaiter sendWaiter = CompletionWaiter.forLatency(res.sendCq, res.sendChannel, s.timeoutMillis, "a send completion");
            long start = System.nanoTime();
            SampleWindow window = window(start);
            long scnt = 0;
            long rcnt = 0;
            long posted = res.receivesPerQp();
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
                    if (breakdown != null) {
                        breakdown.receivePolled();
                    }
                    for (int i = 0; i < got; i++) {
                        PerftestResources.check(wcs[i], "receive", scnt, rcnt);
                        rcnt++;
                        if (window != null) {
                            window.count(1);
                        }
                        if (posted < iters) {
                            res.postRecv(0, r);
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
                    sendPolled();
                    PerftestResources.check(wcs[0], "send", scnt, scnt - 1);
                }
            }
            printLat(size, tposted, iters, 2, window);
        }
        out.println(PerftestFormat.RESULT_LINE);
        conn.handshake(mine[0], "the closing handshake");
    }
}
