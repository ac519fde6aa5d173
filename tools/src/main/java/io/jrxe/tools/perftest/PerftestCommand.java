package io.jrxe.tools.perftest;

import io.jrxe.rnic.device.Port;
import io.jrxe.tools.BadOption;
import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.IbPortOption;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.verbs.emulated.Progress;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.OdpCountersLine;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * What the eight perftest commands share: perftest's options and their defaults, the connection (version,
 * system data, MTU, QP handshakes, reports), the header block and the address lines. Each subclass names
 * its verb and whether it measures bandwidth or latency; {@link PerftestRun} runs the test.
 */
public abstract class PerftestCommand implements Callable<Integer> {
    static final int MIN_ITERS = 5;
    /** The device's max_msg_sz: a larger -s is refused before any connection is tried. */
    static final long MAX_SIZE = Port.MAX_MESSAGE_SIZE;
    static final int DEF_SIZE_BW = 65536;
    static final int DEF_SIZE_LAT = 2;
    static final int DEF_SIZE_ATOMIC = 8;
    static final int CQ_MOD_LIMIT = 8192;
    static final int NO_PEAK_ITERS = 20000;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Parameters(arity = "0..1", paramLabel = "SERVERNAME", description = "the server to connect to; without it, be the server")
    String servername;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "18515", description = "TCP port for the exchange (default: ${DEFAULT-VALUE})")
    int port;

    @Mixin
    IbPortOption ibPort;

    @Option(names = {"-m", "--mtu"}, paramLabel = "MTU", description = "path MTU: 256 to 4096 (default: the port's active MTU)")
    Integer mtu;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", description = "size of message to exchange, K and M suffixes allowed "
            + "(default: 65536 for bandwidth, 2 for latency, 8 for atomics)")
    String sizeText;

    @Option(names = "--warmup", paramLabel = "MS", defaultValue = "${env:JRXE_WARMUP_MS:-1500}",
            description = "before connecting, run traffic through the device itself for MS milliseconds so that the JIT "
                    + "has compiled jrxe's data path before the measurement; a bandwidth test goes on while the JIT still "
                    + "compiles, up to three times MS (0: none; default: ${DEFAULT-VALUE}, which $JRXE_WARMUP_MS sets)")
    int warmupMillis;

    @Option(names = {"-a", "--all"}, description = "run sizes from 2 till 2^23")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "ITERS", description = "number of exchanges, at least 5 (default: 5000 for write "
            + "bandwidth, 1000 otherwise)")
    Long iters;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "run the test for SECONDS instead of ITERS exchanges; what is reported"
            + " is the middle of it, without the margins (-f)")
    Integer duration;

    @Option(names = {"-f", "--margin"}, paramLabel = "SECONDS", description = "with -D, the seconds at its start and at its end that"
            + " run but are not measured (default: a quarter of the duration, as in perftest)")
    Integer margin;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "DEPTH", description = "size of the send queue (default: 128 for bandwidth, 1 for latency)")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "DEPTH", description = "receives to post (send tests; default: 512)")
    Integer rxDepth;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N", description = "generate a completion every N work requests (default: 100)")
    Integer cqMod;

    @Option(names = {"-q", "--qp"}, paramLabel = "QPS", defaultValue = "1", description = "number of QPs (bandwidth tests; default: ${DEFAULT-VALUE})")
    int qps;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX", description = "GID index, as `jrxe devinfo -v` lists them (default: the "
            + "RoCE v2 GID of --addr, the one perftest would pick)")
    Integer gidIndex;

    @Option(names = {"-o", "--outs"}, paramLabel = "NUM", description = "outstanding reads/atomics (read and atomic tests; default: the device's max_qp_rd_atom)")
    Integer outReads;

    @Option(names = {"-u", "--qp-timeout"}, paramLabel = "TIMEOUT", defaultValue = "14", description = "QP timeout: 4.096 us * 2^TIMEOUT (default: ${DEFAULT-VALUE})")
    int qpTimeout;

    @Option(names = {"-S", "--sl"}, paramLabel = "SL", defaultValue = "0", description = "service level (default: ${DEFAULT-VALUE})")
    int sl;

    @Option(names = {"-I", "--inline_size"}, paramLabel = "SIZE", description = "max inline size (jrxe, like perftest on an unknown device, sends none)")
    Integer inlineSize;

    @Option(names = {"-e", "--events"}, description = "sleep on CQ events instead of polling")
    boolean events;

    @Option(names = {"-F", "--CPU-freq"}, description = "do not fail on CPU frequency warnings (jrxe measures with System.nanoTime)")
    boolean cpuFreq;

    @Option(names = {"-N", "--noPeak"}, description = "do not measure the peak bandwidth")
    boolean noPeak;

    @Option(names = "--qp-spread", description = "jrxe's own: after a bandwidth client's row, the bandwidth of its slowest, "
            + "median and fastest QP (each from the first post to that QP's last completion), to see whether one starves")
    boolean qpSpread;

    @Option(names = "--report_gbits", description = "report bandwidth in Gb/sec instead of MiB/sec")
    boolean reportGbits;

    @Option(names = {"-H", "--report-histogram"}, description = "print the sorted latencies (latency tests)")
    boolean histogram;

    @Option(names = {"-U", "--report-unsorted"}, description = "print the latencies unsorted (latency tests)")
    boolean unsorted;

    @Option(names = {"-R", "--rdma_cm"}, description = "connect the QPs (RC) through the RDMA connection manager, on the "
            + "port of -p; the exchange then runs over a CM-connected QP too, as with -z")
    boolean rdmaCm;

    @Option(names = {"-z", "--comm_rdma_cm"}, description = "exchange the test's data over a QP the RDMA connection manager "
            + "connects on the port of -p instead of TCP; the test's QPs connect as without it")
    boolean commRdmaCm;

    @Mixin
    ModeOptions modes;

    @Option(names = "--peer-mlx5dv", paramLabel = "yes|no", defaultValue = "yes", description = "as the client of a perftest 6.28 "
            + "or later that negotiates: whether it was built with mlx5dv, as distributions build it (its negotiation message is "
            + "8 bytes longer); a jrxe server tells by itself (default: ${DEFAULT-VALUE})")
    String peerMlx5dv;

    @Option(names = "--announce-version", paramLabel = "VERSION", defaultValue = PerftestConnection.VERSION,
            description = "the perftest version jrxe tells its peer; from 6.28 on a perftest 6.29 or later peer negotiates "
                    + "the test's parameters with jrxe, as with its own kind (perftest 6.28 always does) (default: ${DEFAULT-VALUE})")
    String announceVersion;

    @Option(names = "--odp", description = "register the data buffer with on-demand paging (IBV_ACCESS_ON_DEMAND) instead of "
            + "pinning it: the NIC faults each page in at its first use; on a jrxe device a line of ODP counters follows "
            + "the results (docs/odp.md)")
    boolean odp;

    @Option(names = "--json", description = "print one JSON object with the test's settings and results instead of the tables")
    boolean json;

    @Option(names = "--latency-breakdown", description = "latency tests on a jrxe device: after the results, where a round "
            + "trip's microseconds went on this side, stage by stage (post, NIC thread, fetch, send, ACK or response, "
            + "completion, poll), with p50/p99/p99.9")
    boolean latencyBreakdown;

    /** The verb this command measures. */
    abstract Verb verb();

    /** True for the bandwidth tests, false for latency. */
    abstract boolean bandwidth();

    /** The atomic operation (atomic tests only). */
    String atomicType() {
        return null;
    }

    CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** perftest's parser and force_dependencies, for what jrxe runs; warnings go to {@code out} as perftest prints them. */
    PerftestSettings resolve(List<String> notices) {
        PerftestSettings s = new PerftestSettings();
        s.verb = verb();
        s.bw = bandwidth();
        s.client = servername != null;
        s.events = events;
        modes.early(s, this::bad);
        if (port < 1 || port > 65535) {
            throw bad("-p/--port " + port + ": a TCP port is 1..65535");
        }
        if (ibPort.number() < 1) {
            throw bad("-i/--ib-port " + ibPort.number() + ": IB Port can't be less than 1");
        }
        s.rdmaCm = rdmaCm;
        s.rdmaCmExchange = rdmaCm || commRdmaCm;
        if (rdmaCm && s.connection == ConnectionType.UC) {
            throw new BadOption("-R with -c UC: UC is not supported in librdmacm");
        }
        if (rdmaCm && s.connection == ConnectionType.UD) {
            throw new BadOption("-R with -c UD: jrxe connects RC QPs only through the connection manager; leave out -R or -c UD");
        }
        if (s.rdmaCmExchange && device.progress() == Progress.INVOKER) {
            throw new BadOption("--progress invoker with -R/-z: the connection manager needs the jrxe NIC's own thread");
        }
        if (mtu != null) {
            try {
                s.mtu = Mtu.ofBytes(mtu);
            } catch (IllegalArgumentException e) {
                throw bad("-m/--mtu " + mtu + ": Invalid MTU; please choose mtu from {256,512,1024,2048,4096}");
            }
        }
        if (qps < 1 || qps > 16384) {
            throw bad("-q/--qp " + qps + ": num of Qps is 1..16384");
        }
        if (!s.bw && qps > 1) {
            throw bad("-q/--qp " + qps + ": Multiple QPs only available on bw tests");
        }
        s.qps = qps;
        if (outReads != null && !s.verb.readLike()) {
            throw bad("-o/--outs: Setting Outstanding reads only available on READ verb");
        }
        if (rxDepth != null && (rxDepth < 1 || rxDepth > 16384)) {
            throw bad("-r/--rx-depth " + rxDepth + ": Rx depth is 1..16384");
        }
        if (rxDepth != null && !s.verb.receives() && s.verb != Verb.WRITE && rxDepth > 1) {
            throw bad("-r/--rx-depth: On RDMA verbs rx depth can be only 1");
        }
        if (txDepth != null && (txDepth < 1 || txDepth > 15000)) {
            throw bad("-t/--tx-depth " + txDepth + ": Tx depth is 1..15000");
        }
        if (cqMod != null && (cqMod < 1 || cqMod > 1024)) {
            throw bad("-Q/--cq-mod " + cqMod + ": CQ moderation is 1..1024");
        }
        if (inlineSize != null && (inlineSize < 0 || inlineSize > 1024)) {
            throw bad("-I/--inline_size " + inlineSize + ": Max inline is 0..1024");
        }
        if (inlineSize != null && s.verb.readLike()) {
            throw bad("-I/--inline_size: Inline feature not available on READ/Atomic verbs");
        }
        if (duration != null && duration <= 0) {
            throw bad("-D/--duration " + duration + ": Duration period must be positive");
        }
        if (s.bw && (histogram || unsorted)) {
            throw bad("-H/-U: the latency reports are for latency tests");
        }
        if (!s.bw && noPeak) {
            throw bad("-N/--noPeak: NoPeak only valid for BW tests");
        }
        if (qpTimeout < 0 || qpTimeout > 31) {
            throw bad("-u/--qp-timeout " + qpTimeout + ": a QP timeout is 0..31");
        }
        if (sl < 0 || sl > 15) {
            throw bad("-S/--sl " + sl + ": Only 15 Service levels");
        }
        if (events && s.verb == Verb.WRITE && !s.bw) {
            throw bad("-e/--events: the write latency test polls memory, it has no completions to sleep on");
        }
        s.atomicType = atomicType();
        s.sizeRequested = sizeText != null;
        s.size = sizeText == null ? (s.verb == Verb.ATOMIC ? DEF_SIZE_ATOMIC : s.bw ? DEF_SIZE_BW : DEF_SIZE_LAT) : parseSize(sizeText);
        if (s.size < 1 || s.size > MAX_SIZE) {
            throw bad("-s/--size " + sizeText + ": a size is 1.." + MAX_SIZE);
        }
        s.iters = iters == null ? (s.bw && s.verb == Verb.WRITE ? 5000 : 1000) : iters;
        if (s.iters < MIN_ITERS || s.iters > 4_294_967_296L) {
            throw bad("-n/--iters " + s.iters + ": Iteration num is " + MIN_ITERS + "..4294967296");
        }
        s.all = all;
        if (duration != null) {
            if (all) {
                throw new BadOption("-D/-a: Duration mode currently doesn't support running on all sizes.");
            }
            if (events) {
                throw new BadOption("-D/-e: Duration mode doesn't work with events.");
            }
            s.durationSeconds = duration;
            s.marginSeconds = margin == null ? duration / 4 : margin;
            if (s.marginSeconds < 0 || duration <= 2 * s.marginSeconds) {
                throw bad("-f/--margin " + s.marginSeconds + ": the duration (" + duration + " s) must be more than twice the margin");
            }
        } else if (margin != null) {
            throw bad("-f/--margin: a margin is for duration runs (-D)");
        }
        s.txDepth = txDepth != null ? txDepth : s.bw ? 128 : 1;
        s.rxDepth = rxDepth != null ? rxDepth : s.verb.receives() ? 512 : 1;
        if (s.verb == Verb.WRITE) {
            s.rxDepth = 1;
        }
        if (s.durationSeconds == 0) {
            s.txDepth = (int) Math.min(s.txDepth, s.iters);
            if (s.verb.receives()) {
                s.rxDepth = (int) Math.min(s.rxDepth, s.iters);
            }
        }
        ModeOptions.unreliableDepth(s);
        if (s.verb.receives() && s.rxDepth % 2 == 1 && !all) {
            s.rxDepth++;
        }
        s.cqMod = cqMod != null ? cqMod : 100;
        // UD keeps its moderation: its messages are at most an MTU.
        if (s.size > CQ_MOD_LIMIT && s.connection != ConnectionType.UD && !all && !events) {
            if (cqMod == null) {
                s.cqMod = 1;
            } else if (cqMod > 1) {
                notices.add(PerftestFormat.RESULT_LINE);
                notices.add("Warning: Large message requested and CQ moderation enabled");
                notices.add("Warning: It can lead to inaccurate results");
            }
        }
        s.cqMod = Math.min(s.cqMod, s.txDepth);
        if (!s.bw) {
            s.cqMod = 1;
        }
        ModeOptions.late(s, cqMod != null, notices, this::bad);
        if (all) {
            s.size = MAX_SIZE;
        }
        if (s.verb == Verb.ATOMIC && s.size != DEF_SIZE_ATOMIC) {
            throw new BadOption("-s/--size " + s.size + ": Message size cannot be changed for Atomic tests");
        }
        s.maxSize = s.size;
        s.noPeak = noPeak || s.durationSeconds > 0;
        if (qpSpread && (!s.bw || s.durationSeconds > 0)) {
            throw bad("--qp-spread: bandwidth tests run for a count of iterations only (not -D)");
        }
        s.qpSpread = qpSpread;
        if (s.bw && (s.durationSeconds > 0 || (s.iters > NO_PEAK_ITERS && !noPeak)
                || (s.verb.receives() && !s.client && !s.duplex && !noPeak))) {
            notices.add(" WARNING: BW peak won't be measured in this run.");
            s.noPeak = true;
        }
        s.odp = odp;
        s.gbits = reportGbits;
        s.histogram = histogram;
        s.unsorted = unsorted;
        s.qpTimeout = qpTimeout;
        s.sl = sl;
        s.ibPort = ibPort.number();
        s.timeoutMillis = device.timeoutMillis();
        s.deviceName = device.deviceName();
        if (inlineSize != null) {
            notices.add(PerftestFormat.RESULT_LINE);
            notices.add("Device not recognized to implement inline feature. Disabling it");
        }
        s.inline = 0;
        if (!announceVersion.matches("\\d{1,6}\\.\\d{1,6}")) {
            throw bad("--announce-version " + announceVersion + ": a perftest version, such as 6.29");
        }
        if (PerftestConnection.atof(announceVersion) < 5.70) {
            throw bad("--announce-version " + announceVersion + ": perftest refuses a peer older than 5.70");
        }
        if (!peerMlx5dv.equals("yes") && !peerMlx5dv.equals("no")) {
            throw bad("--peer-mlx5dv " + peerMlx5dv + ": yes or no");
        }
        return s;
    }

    /** -s takes K and M suffixes. */
    long parseSize(String text) {
        long factor = 1;
        String digits = text;
        if (text.endsWith("K")) {
            factor = 1024;
            digits = text.substring(0, text.length() - 1);
        } else if (text.endsWith("M")) {
            factor = 1024 * 1024;
            digits = text.substring(0, text.length() - 1);
        }
        try {
            return Long.parseLong(digits) * factor;
        } catch (NumberFormatException e) {
            throw bad("-s/--size " + text + ": not a size");
        }
    }

    @Override
    public Integer call() {
        List<String> notices = new ArrayList<>();
        PerftestSettings s = resolve(notices);
        PrintWriter realOut = spec.commandLine().getOut();
        StringWriter discarded = new StringWriter();
        PrintWriter out = json ? new PrintWriter(discarded) : realOut;
        JsonReport jsonReport = new JsonReport(s, spec.commandLine().getCommandName());
        PerftestJsonFile jsonFile = PerftestJsonFile.open(s);
        for (String n : notices) {
            out.println(n);
        }
        if (warmupMillis < 0 || warmupMillis > 60_000) {
            throw bad("--warmup " + warmupMillis + ": from 0 to 60000 milliseconds");
        }
        device.jitWarmupMillis(warmupMillis);
        // The bandwidth tests run with C2, which on 2 cores is still compiling the data path seconds into a run after
        // 1.5 s of warm-up, taking a core from the NICs during the measurement: their warm-up waits for it.
        device.jitWarmupUntilQuiet(bandwidth());
        if (!bandwidth() && !rdmaCm && !commRdmaCm) {
            device.defaultProgress(Progress.INVOKER); // one busy thread per side: see docs/benchmarks.md
        }
        if (latencyBreakdown && bandwidth()) {
            throw bad("--latency-breakdown is for the latency tests (write-lat, send-lat, read-lat, atomic-lat)");
        }
        try (LocalDevice dev = device.open(spec.commandLine().getErr())) {
            s.breakdown = latencyBreakdown ? dev.traceLatency() : null;
            PortInfo p = dev.port(s.ibPort);
            s.gidIndex = gidIndex != null ? gidIndex : dev.defaultGidIndex();
            if (s.gidIndex < 0 || s.gidIndex > 64) {
                throw bad("-x/--gid-index " + s.gidIndex + ": Gid index is 0..64");
            }
            GidEntry gid = dev.gid(s.gidIndex);
            Mtu active = p.activeMtu();
            if (s.mtu == null) {
                s.mtu = active;
            } else if (s.mtu.bytes() > active.bytes()) {
                out.println("Requested mtu is higher than active mtu ");
                out.println("Changing to active mtu - " + active.verbsValue());
                s.mtu = active;
            }
            if (s.verb.readLike()) {
                int max = dev.context().queryDevice().maxQpRdAtom();
                if (outReads == null || outReads <= 0) {
                    s.outReads = max;
                } else if (outReads > max) {
                    out.println(PerftestFormat.RESULT_LINE);
                    spec.commandLine().getErr().println(" Number of outstanding reads is above max = " + max);
                    spec.commandLine().getErr().println(" Changing to that max value");
                    s.outReads = max;
                } else {
                    s.outReads = outReads;
                }
            } else {
                s.outReads = 1;
            }
            CmRoute route = s.rdmaCmExchange ? CmRoute.of(dev, device, servername, port) : null;
            try (PerftestConnection conn = connect(s, out, route)) {
                conn.exchangeVersions();
                int[] sys = conn.exchangeSysData(s.cycleBuffer, s.cacheLine);
                s.cycleBuffer = sys[0];
                s.cacheLine = sys[1];
                s.mtu = Mtu.ofVerbsValue(conn.exchangeMtu(s.mtu.verbsValue()));
                ModeOptions.datagramSize(s, spec.commandLine().getErr());
                if (conn.negotiates()) {
                    negotiate(conn, s, dev, out);
                }
                try (PerftestRun run = new PerftestRun(s, dev, gid, conn, s.rdmaCm ? route : null, out, jsonReport, jsonFile)) {
                    run.run();
                }
                if (s.odp) {
                    OdpCountersLine.print(dev, json ? spec.commandLine().getErr() : out);
                }
                if (s.breakdown != null) {
                    s.breakdown.print(json ? spec.commandLine().getErr() : out, dev.name());
                }
            } finally {
                // also when the run failed: the counters (retries, NAKs) are what tells why
                out.flush();
                dev.report(spec.commandLine().getErr());
            }
        } catch (VerbsException e) {
            throw new UserError(e.getMessage(), e);
        }
        if (json) {
            realOut.println(jsonReport.render());
            realOut.flush();
        }
        out.flush();
        return 0;
    }

    /**
     * perftest 6.28's negotiate_params: both sides' settings must agree, and reads in flight are limited to what
     * the peer's device takes (compare_ibv_device).
     */
    private void negotiate(PerftestConnection conn, PerftestSettings s, LocalDevice dev, PrintWriter out) throws VerbsException {
        byte[] attr = DeviceAttrWire.encode(dev.context().queryDevice(), dev.context().device().guid());
        NegotiationParameters theirs = conn.negotiate(NegotiationParameters.of(s, attr), peerMlx5dv.equals("yes"));
        int remoteMax = DeviceAttrWire.maxQpRdAtom(theirs.deviceAttr());
        if (s.outReads > remoteMax) {
            out.println(" out_reads is greater than remote max_qp_rd_atom, using remote max_qp_rd_atom");
            s.outReads = remoteMax;
        }
    }

    private PerftestConnection connect(PerftestSettings s, PrintWriter out, CmRoute route) {
        if (route != null && s.client) {
            return new PerftestConnection(CmExchange.connect(route.cm(), route.source(), route.address(), s.timeoutMillis), true,
                    announceVersion);
        }
        if (route != null) {
            return new PerftestConnection(CmExchange.accept(route.cm(), route.address(), device.acceptTimeoutMillis(),
                    s.timeoutMillis, () -> printWaiting(out)), false, announceVersion);
        }
        if (s.client) {
            return new PerftestConnection(OobSocket.connect(servername, port, s.timeoutMillis), true, announceVersion);
        }
        ServerSocket listening = OobSocket.listen(port);
        printWaiting(out);
        return new PerftestConnection(OobSocket.accept(listening, device.acceptTimeoutMillis(), s.timeoutMillis), false,
                announceVersion);
    }

    private static void printWaiting(PrintWriter out) {
        out.println();
        out.println("************************************");
        out.println("* Waiting for client to connect... *");
        out.println("************************************");
        out.flush();
    }
}
