package io.jrxe.tools.rcops;

import io.jrxe.verbs.GidEntry;
import io.jrxe.verbs.Mtu;
import io.jrxe.tools.UserError;
import io.jrxe.tools.conformance.ConformanceServer;
import io.jrxe.tools.common.DeviceOptions;
import io.jrxe.tools.common.IbPortOption;
import io.jrxe.tools.common.Gids;
import io.jrxe.tools.common.LocalDevice;
import io.jrxe.tools.common.OobSocket;
import io.jrxe.verbs.PortInfo;
import io.jrxe.verbs.VerbsException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.ServerSocket;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/** `jrxe rc-ops`: the demo's RC operations between two processes, on any two devices. */
@Command(name = "rc-ops", mixinStandardHelpOptions = true,
        description = {"The demo's RC operations between two processes, each on its own device (-d: a jrxe NIC or a "
                + "kernel device such as rxe0, so jrxe can face the kernel's rxe): SEND/RECV, SEND_WITH_IMM, RDMA_WRITE, "
                + "RDMA_WRITE_WITH_IMM, RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD and a SEND of several packets "
                + "(with --placement also ATOMIC_WRITE, and RDMA_WRITE followed by FLUSH). "
                + "Without SERVERNAME it is the server: it waits for a client on TCP port -p and serves its memory and "
                + "receives; with SERVERNAME it is the client and performs every operation against the server. The two "
                + "trade QPN, PSN, GID, buffer address and rkey over that TCP connection, as ibv_rc_pingpong does.",
            "Each side checks what it can see (the client: its completions, the data it READ, the atomics' old "
                + "values; the server: its receive completions and immediate data, the bytes that landed, the atomics' "
                + "result) and prints one line per check; the client also prints the server's verdict.",
            "Both sides' GIDs must be of one family (IPv4-mapped or IPv6): -g picks a kernel device's GID "
                + "(jrxe devinfo -v -d NAME lists them), --addr gives a jrxe NIC its own."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every check on this side passed (the client: on both sides)", "1:a check failed, or bad options",
            "2:the run could not be set up (no such device, no peer, the peer stopped answering, ...)"})
public final class RcOpsCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Parameters(arity = "0..1", paramLabel = "SERVERNAME",
            description = "connect to the server at SERVERNAME and perform the operations; without it, be the server")
    String servername;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", defaultValue = "18516",
            description = "listen on / connect to TCP port PORT (default: ${DEFAULT-VALUE})")
    int port;

    @Mixin
    IbPortOption ibPort;

    @Option(names = {"-g", "--gid-idx"}, paramLabel = "INDEX", defaultValue = "-1",
            description = "local port GID index, as `jrxe devinfo -v` lists them (default: a jrxe NIC's GID of --addr, "
                    + "a kernel device's IPv4-mapped RoCE v2 GID)")
    int gidIndex;

    @Option(names = {"-m", "--mtu"}, paramLabel = "MTU", defaultValue = "1024",
            description = "path MTU: 256, 512, 1024, 2048 or 4096; the smaller of the two sides' is used (default: ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = "--many", paramLabel = "COUNT",
            description = "be a target for `jrxe conformance --target`: serve one tester connection after another, each "
                    + "with a fresh QP and the conformance layout, COUNT of them (0: until interrupted); without it the "
                    + "server serves one rc-ops client")
    Integer many;

    @Option(names = "--placement",
            description = "also ATOMIC_WRITE and a WRITE made visible by FLUSH (IBTA 1.5's placement operations; the kernel's "
                    + "rxe has them from Linux 6.2, through rdma-core 45's extended QP API); give it to both sides")
    boolean placement;

    @Override
    public Integer call() {
        validate();
        PrintWriter out = spec.commandLine().getOut();
        int timeout = device.timeoutMillis();
        try (LocalDevice dev = device.open(spec.commandLine().getErr())) {
            PortInfo portInfo = dev.port(ibPort.number());
            int sgidIndex = gidIndex >= 0 ? gidIndex : dev.defaultGidIndex();
            GidEntry gid = dev.gid(sgidIndex);
            int myMtu = Math.min(mtu, portInfo.activeMtu().bytes());
            if (many != null) {
                out.printf("rc-ops conformance target on %s (%s), GID index %d, GID %s%n", dev.name(), dev.provider(),
                        sgidIndex, Gids.ntop(gid.gid()));
                ConformanceServer.serve(dev.context(), gid.gid(), sgidIndex, ibPort.number(), myMtu, port, many,
                        device.acceptTimeoutMillis(), timeout, out);
                return 0;
            }
            try (RcOpsEndpoint ep = new RcOpsEndpoint(dev, timeout, placement)) {
                return run(dev, ep, sgidIndex, gid, myMtu, out, timeout);
            } finally {
                // also when an operation failed or the peer stopped: the counters (retries, NAKs) tell why
                out.flush();
                dev.report(spec.commandLine().getErr());
            }
        }
    }

    private int run(LocalDevice dev, RcOpsEndpoint ep, int sgidIndex, GidEntry gid, int myMtu, PrintWriter out, int timeout) {
        RcOpsDest mine = new RcOpsDest(ep.qp.qpNum(), ThreadLocalRandom.current().nextInt() & 0xFFFFFF, gid.gid(),
                ep.buf.address(), ep.mr.rkey(), myMtu);
        String role = servername == null ? "server" : "client";
        out.printf("rc-ops %s on %s (%s), GID index %d%n  local:  %s%n", role, dev.name(), dev.provider(),
                sgidIndex, mine.describe());
        out.flush();
        boolean ok = servername == null ? serve(ep, mine, sgidIndex, out, timeout)
                : perform(ep, mine, sgidIndex, out, timeout);
        out.println(ok ? "rc-ops " + role + ": every check passed" : "rc-ops " + role + ": FAILED");
        return ok ? 0 : 1;
    }

    private boolean serve(RcOpsEndpoint ep, RcOpsDest mine, int sgidIndex, PrintWriter out, int timeout) {
        RcOpsServer server = new RcOpsServer(ep, out, placement);
        server.prepare();
        ServerSocket listening = OobSocket.listen(port);
        out.printf("  waiting for a client on TCP port %d%n", port);
        out.flush();
        try (OobSocket oob = OobSocket.accept(listening, device.acceptTimeoutMillis(), timeout)) {
            RcOpsDest peer = exchangeAsServer(oob, mine);
            connect(ep, mine, peer, sgidIndex, out);
            oob.write(mine.encode(), "this side's QP, GID and buffer");
            // The client runs every operation, then says how it went: no time limit for that, its steps have theirs.
            String clientEnd = new String(oob.readExactlyUnbounded(5, "the end of the client's operations"),
                    java.nio.charset.StandardCharsets.US_ASCII).strip();
            boolean ok = server.check(clientEnd.equals("done"));
            oob.write((ok ? "good\n" : "bad!\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII), "the verdict");
            return ok;
        }
    }

    private boolean perform(RcOpsEndpoint ep, RcOpsDest mine, int sgidIndex, PrintWriter out, int timeout) {
        try (OobSocket oob = OobSocket.connect(servername, port, timeout)) {
            oob.write(mine.encode(), "this side's QP, GID and buffer");
            RcOpsDest peer = decode(oob.readExactly(RcOpsDest.LENGTH, "the server's QP, GID and buffer"));
            checkFamilies(mine, peer);
            connect(ep, mine, peer, sgidIndex, out);
            boolean ok = new RcOpsClient(ep, peer, out, placement).run();
            oob.write((ok ? "done\n" : "fail\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII),
                    "the end of the operations");
            String verdict = new String(oob.readExactly(5, "the server's verdict"), java.nio.charset.StandardCharsets.US_ASCII).strip();
            boolean serverOk = verdict.equals("good");
            out.println(serverOk ? "ok    the server's checks passed" : "FAIL  the server's checks failed (its output says which)");
            return ok && serverOk;
        }
    }

    private static RcOpsDest exchangeAsServer(OobSocket oob, RcOpsDest mine) {
        RcOpsDest peer = decode(oob.readExactly(RcOpsDest.LENGTH, "the client's QP, GID and buffer"));
        checkFamilies(mine, peer);
        return peer;
    }

    private static RcOpsDest decode(byte[] line) {
        try {
            return RcOpsDest.decode(line);
        } catch (IllegalArgumentException e) {
            throw new UserError(e.getMessage(), e);
        }
    }

    private static void checkFamilies(RcOpsDest mine, RcOpsDest peer) {
        if (GidEntry.isIpv4Mapped(mine.gid()) != GidEntry.isIpv4Mapped(peer.gid())) {
            throw new UserError("this side's GID " + Gids.ntop(mine.gid()) + " and the peer's " + Gids.ntop(peer.gid())
                    + " are of different families (IPv4-mapped and IPv6): RoCE v2 cannot route between them; pick GIDs "
                    + "of one family (-g on a kernel device, --addr on a jrxe NIC)");
        }
    }

    private void connect(RcOpsEndpoint ep, RcOpsDest mine, RcOpsDest peer, int sgidIndex, PrintWriter out) {
        Mtu pathMtu = Mtu.ofBytes(Math.min(mine.mtu(), peer.mtu()));
        out.printf("  remote: %s%n  path MTU %d%n", peer.describe(), pathMtu.bytes());
        out.flush();
        try {
            ep.connect(peer, mine.psn(), sgidIndex, ibPort.number(), pathMtu);
        } catch (VerbsException e) {
            throw new UserError("couldn't connect to the remote QP: " + e.getMessage(), e);
        }
    }

    private void validate() {
        if (port < 1 || port > 65535) {
            throw bad("-p/--port " + port + ": a TCP port is 1..65535");
        }
        if (many != null && many < 0) {
            throw bad("--many " + many + ": the number of conformance cases to serve is 0 (no limit) or more");
        }
        if (many != null && servername != null) {
            throw bad("--many: only the server serves conformance cases; drop SERVERNAME or --many");
        }
        if (ibPort.number() < 1) {
            throw bad("-i/--ib-port " + ibPort.number() + ": ports are numbered from 1");
        }
        try {
            Mtu.ofBytes(mtu);
        } catch (IllegalArgumentException e) {
            throw bad("-m/--mtu " + mtu + ": " + e.getMessage());
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
