package io.jrxe.tools.perftest;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.verbs.idle.Nap;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.CqParker;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;

/**
 * The bandwidth tests (perftest's write_bw, read_bw, atomic_bw and send_bw mains, run_iter_bw and
 * run_iter_bw_server) and their table: write_bw, read_bw and atomic_bw measured by the client alone, send_bw by
 * both sides. With -b both sides send and measure, trade their reports and print the sum of both directions.
 */
final class BandwidthTest extends MeasuringTest {
    private final Cq recvCq;
    /** The last client run's per-QP bandwidths, slowest first, for the row that reports it (--qp-spread). */
    private double[] spread;

    BandwidthTest(PerftestSettings s, PerftestResources res, PerftestConnection conn, PrintWriter out, JsonReport json,
                  PerftestJsonFile jsonFile) {
        super(s, res, conn, out, json, jsonFile);
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
        if (spread != null) {
            out.println(PerftestFormat.qpSpread(spread, s.gbits));
            spread = null;
        }
        out.flush();
        json.bw(r);
        jsonFile.bw(r);
    }

    /** -b: this side's report and the peer's, traded once both are done (the peer may still be sending), summed. */
    private void bothDirectionsRow(BwReport mine) {
        BwReport theirs = conn.exchangeBwReport(mine, true);
        bwRow(new BwReport(mine.size(), mine.iters(), mine.bwPeak() + theirs.bwPeak(), mine.bwAvg() + theirs.bwAvg(),
                mine.msgRateAvg() + theirs.msgRateAvg()));
    }

    /**
     * write_bw, read_bw and atomic_bw: the client measures, the server waits for its report. With -b both measure;
     * they sync before each size and, with -a, after it too.
     */
    private void oneSidedBandwidth() throws VerbsException {
        bwTableHeader();
        BwReport zero = new BwReport(0, 0, 0, 0, 0);
        if (!s.client && !s.duplex) {
            conn.handshakeUnbounded(mine[0], "the end of the client's test");
            BwReport theirs = conn.exchangeBwReport(zero, false);
            bwRow(theirs);
            conn.handshake(mine[0], "the closing handshake");
            out.println(PerftestFormat.RESULT_LINE);
            return;
        }
        BwReport last = zero;
        for (long size : s.sizes()) {
            if (s.duplex) {
                conn.handshake(mine[0], "the sync before size " + size);
            }
            last = clientBandwidth(size);
            if (s.duplex && s.all) {
                conn.handshakeUnbounded(mine[0], "the sync after size " + size);
            }
            if (s.duplex) {
                bothDirectionsRow(last);
            } else {
                bwRow(last);
            }
        }
        out.println(PerftestFormat.RESULT_LINE);
        if (!s.duplex) {
            conn.handshake(mine[0], "the end of the test");
            conn.exchangeBwReport(last, false);
        }
        conn.handshake(mine[0], "the closing handshake");
    }

    /** send_bw: the server receives and reports too; both sides sync before each size. */
    private void sendBandwidth() throws VerbsException {
        bwTableHeader();
        LateMessageDrain drain = null;
        for (long size : s.sizes()) {
            if (drain != null) {
                drain.close();
                drain = null;
            }
            if (s.receivesHere()) {
                res.postReceives(size);
            }
            conn.handshake(mine[0], "the sync before the test");
            if (s.duplex) {
                BwReport r = new BidirectionalSend(s, res).run(size);
                // perftest trades -b reports unless it ran for a duration: then each side prints its own.
                if (s.durationSeconds == 0) {
                    bothDirectionsRow(r);
                } else {
                    bwRow(r);
                }
            } else if (s.client) {
                bwRow(clientBandwidth(size));
            } else {
                bwRow(serverBandwidth(size));
                if (s.durationSeconds > 0) {
                    drain = LateMessageDrain.start(recvCq);
                }
            }
            if (s.all) {
                conn.handshake(mine[0], "the sync after size " + size);
            }
        }
        out.println(PerftestFormat.RESULT_LINE);
        if (s.durationSeconds > 0) {
            // After a timed run a sender completes every send it still has in flight before it closes: with a
            // thousand QPs on a loaded machine that takes longer than a handshake's bound, and a peer that gave up
            // then destroyed the QPs those sends were going to (the sender ended in RETRY_EXC_ERR).
            conn.handshakeUnbounded(mine[0], "the closing handshake");
        } else {
            conn.handshake(mine[0], "the closing handshake");
        }
        if (drain != null) {
            drain.close();
        }
    }

    /** perftest's run_iter_bw: keep tx_depth work requests in flight on every QP, a completion every cq_mod. */
    private BwReport clientBandwidth(long size) throws VerbsException {
        SendSide sends = new SendSide(s, res, size);
        CompletionWaiter waiter = new CompletionWaiter(res.sendCq, res.sendChannel,
                FirstCompletionWait.millis(s.timeoutMillis, s.qps, s.cqMod, size), "the completion of a "
                + s.verb.title() + " (is the server still running?)");
        boolean duration = s.durationSeconds > 0;
        long start = System.nanoTime();
        SampleWindow window = duration ? SampleWindow.from(start, s.durationSeconds, s.marginSeconds) : null;
        while (true) {
            sends.fill(duration && window.observe(System.nanoTime()));
            if (sends.finished()) {
                break;
            }
            // Every QP has its window full (or is done): wait for completions, napping while a queue of large
            // messages drains, then spinning briefly and yielding the CPU to the NIC threads.
            int got = waiter.await(wcs, RefillPace.napNanos(sends.outstanding(), size));
            for (int i = 0; i < got; i++) {
                long k = sends.completed(wcs[i]);
                if (duration) {
                    window.count(k);
                }
            }
        }
        BwReport report = sends.report(start, System.nanoTime(), window);
        if (s.qpSpread) {
            spread = sends.perQpBandwidth(start);
        }
        return report;
    }

    /** perftest's run_iter_bw_server: count the receives (reposting while more are due); no peak. */
    private BwReport serverBandwidth(long size) throws VerbsException {
        ReceiveSide receives = new ReceiveSide(s, res, size);
        boolean duration = s.durationSeconds > 0;
        CompletionWaiter waiter = new CompletionWaiter(res.recvCq, res.recvChannel, s.timeoutMillis,
                "the next message from the client (is it still running?)");
        long first = 0;
        SampleWindow window = null;
        BackoffIdle receiveIdle = new BackoffIdle(CqParker.of(recvCq));
        int idleSpins = 0;
        long idleSince = 0;
        long total = receives.total();
        while (receives.received() < total) {
            int got;
            if (duration && receives.received() > 0) {
                if (window.observe(System.nanoTime())) {
                    break;
                }
                got = recvCq.poll(wcs);
                if (got == 0) {
                    // Nap first while the receives just posted last (ReceivePace), then spin, yield and park as
                    // the waiter does: a bare spin here would take a core from the NIC threads that deliver the
                    // messages.
                    if (idleSpins++ == 0) {
                        long nap = ReceivePace.napNanos(receives.waiting());
                        if (nap > 0) {
                            Nap.forNanos(nap);
                        }
                        idleSince = System.nanoTime(); // the yields that follow count from the nap's end
                    }
                    receiveIdle.idle(idleSpins, idleSince, Long.MAX_VALUE);
                    continue;
                }
                idleSpins = 0;
            } else {
                got = awaitMessage(waiter, receives);
            }
            for (int i = 0; i < got; i++) {
                if (receives.received() == 0) {
                    first = System.nanoTime();
                    window = duration ? SampleWindow.from(first, s.durationSeconds, s.marginSeconds) : null;
                }
                receives.received(wcs[i]);
                if (duration) {
                    window.count(1);
                }
            }
        }
        // With -D the server's DURATION seconds start at the first message, and it counts what came inside their
        // sample window; what the client still sends lands in the receives already posted.
        long now = System.nanoTime();
        long count = duration ? window.counted() : receives.received();
        double seconds = duration ? window.seconds(now) : (now - first) / 1e9;
        double factor = s.gbits ? 125_000_000.0 : 0x100000;
        return seconds > 0 ? new BwReport(size, count, 0, size * (double) count / seconds / factor, count / seconds / 1e6)
                : new BwReport(size, count, 0, 0, 0);
    }

    /** The next receives; over UC and UD a message lost on the way is never sent again, which a timeout says. */
    private int awaitMessage(CompletionWaiter waiter, ReceiveSide receives) {
        try {
            return waiter.await(wcs, ReceivePace.napNanos(receives.waiting()));
        } catch (UserError e) {
            if (s.connection == ConnectionType.RC) {
                throw e;
            }
            throw new UserError(e.getMessage() + "; " + receives.received() + " of " + receives.total() + " messages came, and "
                    + s.connection + " does not send again what was lost", e);
        }
    }
}
