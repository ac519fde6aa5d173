package io.jrxe.tools.pingpong;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.CompletionWaiter;
import io.jrxe.rnic.device.Port;
import io.jrxe.tools.common.IbPortOption;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.tools.common.LatencyBreakdown;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.OdpCountersLine;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.tools.common.VendorErrText;
import io.jrxe.verbs.Errno;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Qp;
import io.jrxe.verbs.QpAttributes;
import io.jrxe.verbs.QpCapabilities;
import io.jrxe.verbs.QpInitAttributes;
import io.jrxe.verbs.QpType;
import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.SendWr;
import io.jrxe.verbs.Srq;
import io.jrxe.verbs.VerbsException;
import io.jrxe.verbs.WorkCompletion;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What ibv_rc_pingpong, ibv_uc_pingpong, ibv_srq_pingpong and ibv_ud_pingpong share: their options, the exchange of addresses, the loop that
 * sends a message, waits for the echo and sends again, and the two result lines. The subclasses make the
 * QP and say how a message is sent.
 */
abstract class PingpongBase implements Callable<Integer> {
    static final int RECV_WRID = 1;
    static final int SEND_WRID = 2;
    static final int PAGE_SIZE = 4096;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Parameters(arity = "0..1", paramLabel = "SERVERNAME", description = "connect to the server at SERVERNAME; without it, be the server and wait for a connection")
    String servername;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "18515",
            description = "listen on / connect to TCP port PORT (default: ${DEFAULT-VALUE})")
    int port;

    @Mixin
    IbPortOption ibPort;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "DEPTH", defaultValue = "500",
            description = "number of receives to post at a time (default: ${DEFAULT-VALUE})")
    int rxDepth;

    @Option(names = {"-n", "--iters"}, paramLabel = "ITERS", defaultValue = "1000", description = "number of exchanges (default: ${DEFAULT-VALUE})")
    int iters;

    @Option(names = {"-l", "--sl"}, paramLabel = "SL", defaultValue = "0", description = "service level value (default: ${DEFAULT-VALUE})")
    int sl;

    @Option(names = {"-e", "--events"}, description = "sleep on CQ events (default: poll)")
    boolean events;

    @Option(names = "--warmup", paramLabel = "MS", defaultValue = "${env:JRXE_WARMUP_MS:-1000}",
            description = "how long a jrxe NIC runs traffic through itself before it meets the peer, so that the JIT "
                    + "has compiled its data path and the first exchanges are not timed through the interpreter "
                    + "(default: ${DEFAULT-VALUE}, which $JRXE_WARMUP_MS sets; 0: a few rounds only)")
    int warmupMillis;

    @Option(names = "--latency-breakdown", description = "on a jrxe device: after the result lines, where an exchange's "
            + "microseconds went on this side, stage by stage (post, NIC thread, fetch, send, ACK, completion, poll)")
    boolean latencyBreakdown;

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "INDEX", defaultValue = "-1",
            description = "local port GID index, as `jrxe devinfo -v` lists them (default: the RoCE v2 GID of --addr)")
    int gidIndex;

    @Option(names = {"-c", "--chk"}, description = "validate the received buffer (the server checks what the client sent)")
    boolean check;

    /** The message size in bytes. */
    abstract int size();

    /** The line prefix after "local address:  ": rc_pingpong prints ", GID", ud_pingpong ": GID". */
    abstract String localGidSeparator();

    /** Further checks of this tool's options; throw a ParameterException for a bad one. */
    void validateMore() {
    }

    /** Makes the CQ, the QP and its memory and moves the QP to INIT; returns the session that runs the loop. */
    abstract Session open(LocalDevice dev, int timeoutMillis);

    /**
     * True when the buffer is registered ON_DEMAND (ibv_rc_pingpong's -o, or -O's implicit MR); the ODP counters then
     * follow the results.
     */
    boolean onDemand() {
        return false;
    }

    /**
     * True when the buffer is reached through an implicit ON_DEMAND MR, one MR over the whole address space
     * (ibv_rc_pingpong's -O): a jrxe NIC is made with implicit ODP on.
     */
    boolean implicitOnDemand() {
        return false;
    }

    /** True when the ON_DEMAND buffer is prefetched before the first exchange (ibv_rc_pingpong's -P). */
    boolean prefetch() {
        return false;
    }

    /** How many QPs exchange messages: 1, or ibv_srq_pingpong's -q. */
    int qpCount() {
        return 1;
    }

    /** How many address messages each side sends: one, or ibv_srq_pingpong's fixed number. */
    int exchangeSlots() {
        return 1;
    }

    /** The resources of one run: its QPs (all on one CQ), and the SRQ they share if any. */
    abstract static class Session implements AutoCloseable {
        final SessionResources r;
        final Srq srq;
        final Qp[] qps;
        final RecvWr recv = new RecvWr(1);
        final SendWr send = new SendWr(1);

        /** Creates the session's QP of this type and moves it to INIT; on failure releases the resources. */
        Session(SessionResources r, QpType type, int rxDepth, QpAttributes init) {
            this(r, type, rxDepth, init, 1, false);
        }

        /**
         * Creates {@code count} QPs of this type and moves them to INIT; with {@code shared}, one SRQ of
         * {@code rxDepth} receives serves them all. On failure releases what it made.
         */
        Session(SessionResources r, QpType type, int rxDepth, QpAttributes init, int count, boolean shared) {
            this.r = r;
            this.qps = new Qp[count];
            Srq made = null;
            try {
                made = shared ? r.pd.createSrq(rxDepth, 1) : null;
                for (int i = 0; i < count; i++) {
                    qps[i] = r.pd.createQp(new QpInitAttributes(type, r.cq, r.cq, made,
                            new QpCapabilities(1, shared ? 0 : rxDepth, 1, shared ? 0 : 1, 0), false));
                    qps[i].modify(init);
                }
            } catch (VerbsException e) {
                closeQueues(qps, made);
                r.close();
                throw new UserError(e.getMessage(), e);
            }
            this.srq = made;
        }

        Qp qp(int index) {
            return qps[index];
        }

        CompletionWaiter waiter() {
            return r.waiter;
        }

        /** Arms the CQ for its completion channel (ibv_req_notify_cq). */
        void arm() {
            r.cq.requestNotify(false);
        }

        /** Posts a receive of one message (to the SRQ if there is one); false when the receive queue is full. */
        boolean postRecv() throws VerbsException {
            try {
                if (srq != null) {
                    srq.postRecv(recv);
                } else {
                    qps[0].postRecv(recv);
                }
                return true;
            } catch (VerbsException e) {
                if (e.errno() == Errno.ENOMEM) {
                    return false;
                }
                throw e;
            }
        }

        /**
         * Moves QP {@code index} to RTR and RTS (or makes the AH) towards the peer's, and addresses {@link #send} to
         * it: each QP's messages are then that one work request, posted as it is.
         */
        abstract void connect(int index, PingpongDest remote, int myPsn, int sgidIndex) throws VerbsException;

        /** The client's validation pattern, written before the first send. */
        abstract void fillPattern();

        /** The pages whose content is not what the client sent; empty when all are right. */
        abstract java.util.List<Integer> invalidPages();

        /** What the session made besides its QPs, SRQ and resources (an address handle); after the QPs. */
        void closeMore() throws VerbsException {
        }

        @Override
        public void close() {
            try {
                closeQueues(qps, srq);
                closeMore();
            } catch (VerbsException e) {
                // the device is removed next, with everything it holds
            }
            r.close();
        }

        private static void closeQueues(Qp[] qps, Srq srq) {
            try {
                for (Qp qp : qps) {
                    if (qp != null) {
                        qp.close();
                    }
                }
                if (srq != null) {
                    srq.close();
                }
            } catch (VerbsException e) {
                // the device is removed next, with everything it holds
            }
        }
    }

    private void validate() {
        if (port < 1 || port > 65535) {
            throw bad("-p/--port " + port + ": a TCP port is 1..65535");
        }
        if (ibPort.number() < 1) {
            throw bad("-i/--ib-port " + ibPort.number() + ": ports are numbered from 1");
        }
        if (rxDepth < 1) {
            throw bad("-r/--rx-depth " + rxDepth + ": post at least one receive");
        }
        if (iters < 1) {
            throw bad("-n/--iters " + iters + ": at least one exchange");
        }
        if (sl < 0 || sl > 15) {
            throw bad("-l/--sl " + sl + ": service levels are 0..15");
        }
        if (warmupMillis < 0 || warmupMillis > 60_000) {
            throw bad("--warmup " + warmupMillis + ": from 0 to 60000 milliseconds");
        }
        if (size() < 1 || size() > Port.MAX_MESSAGE_SIZE) {
            throw bad("-s/--size " + size() + ": a message is 1.." + Port.MAX_MESSAGE_SIZE + " bytes (the port's max_msg_sz)");
        }
        validateMore();
    }

    CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    @Override
    public Integer call() throws Exception {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        int timeout = device.timeoutMillis();
        int acceptTimeout = device.acceptTimeoutMillis();
        device.defaultProgress(Progress.INVOKER); // one busy thread per side: see docs/benchmarks.md
        device.jitWarmupMillis(warmupMillis);
        if (implicitOnDemand()) {
            device.implicitOdpForCommand();
        }
        try (LocalDevice dev = device.open(spec.commandLine().getErr())) {
            try {
                return exchange(dev, out, timeout, acceptTimeout);
            } finally {
                // also when the run failed (a server that waited in vain, a peer that stopped): the counters tell why
                out.flush();
                dev.report(spec.commandLine().getErr());
            }
        }
    }

    private int exchange(LocalDevice dev, PrintWriter out, int timeout, int acceptTimeout) throws VerbsException {
        LatencyBreakdown breakdown = latencyBreakdown ? dev.traceLatency() : null;
        dev.port(ibPort.number());
        int sgidIndex = gidIndex >= 0 ? gidIndex : dev.defaultGidIndex();
        GidEntry gid = dev.gid(sgidIndex);
        try (Session s = open(dev, timeout)) {
            int routs = postRecvs(s, rxDepth);
            if (routs < rxDepth) {
                throw new UserError("Couldn't post receive (" + routs + ")");
            }
            if (events) {
                s.arm();
            }
            List<PingpongDest> mine = new ArrayList<>();
            for (Qp qp : s.qps) {
                mine.add(new PingpongDest(0, qp.qpNum(), ThreadLocalRandom.current().nextInt() & 0xFFFFFF, gid.gid()));
            }
            ServerSocket listening = servername == null ? OobSocket.listen(port) : null;
            for (PingpongDest d : mine) {
                out.println("  local address:  " + d.describe(localGidSeparator()));
            }
            out.flush();
            List<PingpongDest> remote;
            if (servername != null) {
                remote = PingpongExchange.client(servername, port, timeout, mine, exchangeSlots());
            } else {
                remote = PingpongExchange.server(listening, acceptTimeout, timeout, mine, exchangeSlots(),
                        r -> connectOrFail(s, r, mine, sgidIndex));
            }
            for (PingpongDest d : remote) {
                out.println(" ".repeat(2) + "remote address: " + d.describe(","));
            }
            out.flush();
            if (servername != null) {
                connectOrFail(s, remote, mine, sgidIndex);
            }
            int result = loop(s, out, dev, breakdown);
            if (onDemand()) {
                OdpCountersLine.print(dev, out);
            }
            if (breakdown != null) {
                breakdown.print(out, dev.name());
            }
            return result;
        }
    }

    private void connectOrFail(Session s, List<PingpongDest> remote, List<PingpongDest> mine, int sgidIndex) {
        try {
            for (int i = 0; i < mine.size(); i++) {
                s.connect(i, remote.get(i), mine.get(i).psn(), sgidIndex);
            }
        } catch (VerbsException e) {
            throw new UserError("Couldn't connect to remote QP: " + e.getMessage(), e);
        }
    }

    private static int postRecvs(Session s, int n) throws VerbsException {
        int i = 0;
        while (i < n && s.postRecv()) {
            i++;
        }
        return i;
    }

    private int loop(Session s, PrintWriter out, LocalDevice dev, LatencyBreakdown breakdown)
            throws VerbsException {
        // What runs for every completion is written out here, or is the verbs' own code, which the device's warm-up
        // has compiled: a helper of this class would be compiled by the JIT during the first few hundred
        // exchanges, and on two cores each such compile stalls both sides 0.2-0.9 ms (docs/benchmarks.md).
        Qp[] sessionQps = s.qps;
        int qps = sessionQps.length;
        CompletionWaiter waiter = s.waiter();
        // What each QP waits for before it sends again: its receive, and its own send's completion.
        int[] pending = new int[qps];
        if (servername != null && check) {
            s.fillPattern();
        }
        for (int i = 0; i < qps; i++) {
            pending[i] = RECV_WRID;
            if (servername != null) {
                sessionQps[i].postSend(s.send);
                pending[i] |= SEND_WRID;
            }
        }
        long start = System.nanoTime();
        int rcnt = 0;
        int scnt = 0;
        int routs = rxDepth;
        WorkCompletion[] wc = new WorkCompletion[2 * qps];
        for (int i = 0; i < wc.length; i++) {
            wc[i] = new WorkCompletion();
        }
        while (rcnt < iters || scnt < iters) {
            int ne = waiter.await(wc);
            for (int i = 0; i < ne; i++) {
                WorkCompletion c = wc[i];
                if (c.status() != io.jrxe.verbs.WcStatus.SUCCESS) {
                    throw new UserError(String.format("Failed status %s (%d) for wr_id %d (after %d sends and %d receives; %s)",
                            c.status().description(), c.status().verbsValue(), (int) c.wrId(), scnt, rcnt, dev.movedCounters()));
                }
                int qpn = c.qpNum();
                int j = 0;
                while (j < qps && sessionQps[j].qpNum() != qpn) {
                    j++;
                }
                if (j == qps) {
                    throw new UserError(String.format("Couldn't find QPN %06x", qpn));
                }
                if (breakdown != null) {
                    if (c.wrId() == SEND_WRID) {
                        breakdown.sendPolled();
                    } else {
                        breakdown.receivePolled();
                    }
                }
                switch ((int) c.wrId()) {
                    case SEND_WRID -> scnt++;
                    case RECV_WRID -> {
                        // One receive per QP must stay posted (ibv_srq_pingpong's rule; the others have one QP).
                        if (--routs <= qps) {
                            routs += postRecvs(s, rxDepth - routs);
                            if (routs < rxDepth) {
                                throw new UserError("Couldn't post receive (" + routs + ")");
                            }
                        }
                        rcnt++;
                    }
                    default -> throw new UserError("Completion for unknown wr_id " + (int) c.wrId());
                }
                pending[j] &= ~(int) c.wrId();
                if (scnt < iters && pending[j] == 0) {
                    sessionQps[j].postSend(s.send);
                    pending[j] = RECV_WRID | SEND_WRID;
                }
            }
        }
        long end = System.nanoTime();
        // ibv_rc_pingpong measures with gettimeofday: whole microseconds, in a float.
        float usec = (float) ((end - start) / 1000);
        long bytes = (long) size() * iters * 2;
        out.printf("%d bytes in %.2f seconds = %.2f Mbit/sec%n", bytes, usec / 1000000., bytes * 8. / usec);
        out.printf("%d iters in %.2f seconds = %.2f usec/iter%n", iters, usec / 1000000., usec / iters);
        int status = 0;
        if (servername == null && check) {
            for (int page : s.invalidPages()) {
                out.printf("invalid data in page %d%n", page);
                status = 1;
            }
        }
        out.flush();
        return status;
    }
}
