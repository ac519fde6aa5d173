package io.jrxe.tools.conformance;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.tools.rcops.RcOpsDest;
import io.jrxe.verbs.Context;
import io.jrxe.verbs.Mtu;
import io.jrxe.verbs.VerbsException;

import java.io.PrintWriter;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The target side of `jrxe conformance --target`: `jrxe rc-ops --many` serves one tester connection after
 * another, each with a fresh {@link TargetSetup} (no memory window: not every device binds one). Per connection:
 * the tester's rc-ops line in, this side's rc-ops line and keys line out, then the QP lives until the tester says
 * "done" (or closes the connection), and goes.
 */
public final class ConformanceServer {
    private ConformanceServer() {
    }

    /**
     * @param count how many testers' cases to serve, 0 for as many as come
     * @return how many were served
     */
    public static int serve(Context context, byte[] gid, int sgidIndex, int ibPort, int mtu, int tcpPort, int count,
                            int acceptTimeoutMillis, int timeoutMillis, PrintWriter out) {
        int served = 0;
        try (ServerSocket listening = OobSocket.listen(tcpPort)) {
            out.printf("  serving conformance cases on TCP port %d, one QP per connection%s%n", tcpPort,
                    count == 0 ? "" : " (" + count + " of them)");
            out.flush();
            while (count == 0 || served < count) {
                try (OobSocket oob = OobSocket.acceptNext(listening, acceptTimeoutMillis, timeoutMillis)) {
                    serveOne(context, gid, sgidIndex, ibPort, mtu, oob);
                } catch (TesterGone e) {
                    // A tester that gave up (its own timeout, an interrupt) ends its case, not the target.
                    out.printf("  a tester left: %s%n", e.getMessage());
                    out.flush();
                }
                served++;
            }
        } catch (java.io.IOException e) {
            throw new UserError("closing TCP port " + tcpPort + " failed: " + e.getMessage(), e);
        }
        out.printf("  served %d conformance case%s%n", served, served == 1 ? "" : "s");
        return served;
    }

    /** The tester's side of one case's exchange failed: its connection broke or timed out, or it sent no QP. */
    private static final class TesterGone extends RuntimeException {
        TesterGone(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static void serveOne(Context context, byte[] gid, int sgidIndex, int ibPort, int mtu, OobSocket oob) {
        RcOpsDest tester;
        try {
            tester = RcOpsDest.decode(oob.readExactly(RcOpsDest.LENGTH, "the tester's QP"));
        } catch (IllegalArgumentException | UserError e) {
            throw new TesterGone(e.getMessage(), e);
        }
        Mtu pathMtu = Mtu.ofBytes(Math.min(mtu, tester.mtu()));
        int sendPsn = ThreadLocalRandom.current().nextInt() & 0xFFFFFF;
        try (TargetSetup setup = new TargetSetup(context, false)) {
            setup.connect(tester, sendPsn, sgidIndex, ibPort, pathMtu);
            try {
                oob.write(setup.dest(gid, sendPsn, pathMtu).encode(), "this side's QP, GID and buffer");
                oob.write(setup.keys().encode(), "this side's keys");
            } catch (UserError e) {
                throw new TesterGone(e.getMessage(), e);
            }
            try {
                oob.readExactlyUnbounded(5, "the end of the tester's case");
            } catch (UserError closed) {
                // the tester closed the connection without "done": the case is over all the same
            }
        } catch (VerbsException e) {
            throw new UserError("cannot set up a conformance QP: " + e.getMessage(), e);
        }
    }
}
