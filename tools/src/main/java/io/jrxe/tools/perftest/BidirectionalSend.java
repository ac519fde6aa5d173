package io.jrxe.tools.perftest;

import io.jrxe.verbs.idle.BackoffIdle;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.verbs.Cq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;

/**
 * send_bw -b (perftest's run_iter_bi): each side sends ITERS messages per QP while it receives the peer's, polling
 * both CQs in turn. The server starts sending only once the client's first message came, so that the client had
 * posted its receives (over UC and UD a message with no receive is lost). The report is of this side's sends; with
 * -D the sample window counts the sends completed and the messages received.
 */
final class BidirectionalSend {
    private final PerftestSettings s;
    private final PerftestResources res;
    private final WorkCompletion[] wcs;

    BidirectionalSend(PerftestSettings s, PerftestResources res) {
        this.s = s;
        this.res = res;
        this.wcs = res.wcs;
    }

    BwReport run(long size) throws VerbsException {
        SendSide sends = new SendSide(s, res, size);
        ReceiveSide receives = new ReceiveSide(s, res, size);
        Cq sendCq = res.sendCq;
        Cq recvCq = res.recvCq;
        boolean duration = s.durationSeconds > 0;
        long timeoutNanos = s.timeoutMillis * 1_000_000L;
        long start = System.nanoTime();
        boolean sending = s.client;
        SampleWindow window = duration && sending ? SampleWindow.from(start, s.durationSeconds, s.marginSeconds) : null;
        long total = receives.total();
        long quietSince = start;
        BackoffIdle idle = new BackoffIdle();
        int idleSpins = 0;
        while (true) {
            boolean ended = window != null && window.observe(System.nanoTime());
            if (duration ? ended : sends.finished() && receives.received() >= total) {
                break;
            }
            if (sending) {
                sends.fill(ended);
            }
            int got = recvCq.poll(wcs);
            for (int i = 0; i < got; i++) {
                if (!sending) {
                    sending = true;
                    window = duration ? SampleWindow.from(System.nanoTime(), s.durationSeconds, s.marginSeconds) : null;
                }
                receives.received(wcs[i]);
                if (window != null) {
                    window.count(1);
                }
            }
            int done = sendCq.poll(wcs);
            for (int i = 0; i < done; i++) {
                long k = sends.completed(wcs[i]);
                if (window != null) {
                    window.count(k);
                }
            }
            if (got + done > 0) {
                idleSpins = 0;
                quietSince = System.nanoTime();
            } else if (idle.idle(++idleSpins, quietSince, timeoutNanos)) {
                throw new UserError(String.format("no completion for %s while waiting for the peer's messages (%d of %d came) and "
                        + "this side's sends (%d of %d completed): the peer stopped answering%s", OobSocket.seconds(s.timeoutMillis),
                        receives.received(), total, sends.completedCount(), sends.posted(),
                        s.connection == ConnectionType.RC ? "" : "; " + s.connection + " does not send again what was lost"));
            }
        }
        return sends.report(start, System.nanoTime(), window);
    }
}
