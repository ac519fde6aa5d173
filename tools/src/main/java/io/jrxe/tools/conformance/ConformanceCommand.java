package io.jrxe.tools.conformance;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.tools.common.WireChoice;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.raw.RawSocketOpener;
import io.jrxe.wire.port.shm.ShmDirectory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe conformance`: crafted RoCEv2 packets against an RC responder, each answer checked against the rules. */
@Command(name = "conformance", mixinStandardHelpOptions = true,
        description = {"A packet-level conformance test of an RC responder: the tester crafts RoCEv2 packets itself "
                + "(PSN window, opcode sequence, access violations, lengths and pads, RNR, atomics, READ and atomic "
                + "replay, malformed headers, bad ICRC, P_Key and Q_Key, forged sources, ghost ACKs), sends them from "
                + "its own UDP address and checks the answers: ACKs, NAKs, READ responses, atomic ACKs, or silence.",
            "By default the target is a jrxe NIC started in this process on loopback, whose counters, memory, QP "
                + "state and completions are checked too; with --target it is `jrxe rc-ops --many` on any device "
                + "(kernel rxe included), reached over TCP, one QP per case.",
            "With --wire shm the in-process target and the tester meet on the shared-memory wire instead of UDP: the "
                + "same packets and ICRCs, written into each other's rings.",
            "Each case prints one row: verdict, id, name, the expected answers and whose rule they follow (IBTA or "
                + "rxe), and what was observed; a totals line ends the report."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every case that ran passed", "1:bad options",
            "2:a case failed, or the target could not be reached"})
public final class ConformanceCommand implements Callable<Integer> {
    static final String TARGET_ADDRESS = "127.0.77.1";
    private static final int DEFAULT_RC_OPS_PORT = 18516;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--target", paramLabel = "HOST[:PORT]",
            description = "run against `jrxe rc-ops --many` at HOST (TCP PORT, default " + DEFAULT_RC_OPS_PORT + ") instead of "
                    + "a jrxe NIC in this process (which listens on " + TARGET_ADDRESS + ")")
    String target;

    @Option(names = "--addr", paramLabel = "ADDRESS", defaultValue = "127.0.77.2",
            description = "the tester's own IPv4 address (UDP port 4791 on it must be free); forged packets come from "
                    + "the address after it (default: ${DEFAULT-VALUE})")
    String addr;

    @Option(names = "--wire", paramLabel = "WIRE",
            description = "what carries the packets between the tester and the in-process target: udp (sockets on "
                    + "loopback) or shm (shared-memory rings, see docs/wire.md; any --addr will do); not with --target "
                    + "(default: udp)")
    String wire;

    @Option(names = "--case", paramLabel = "PATTERN",
            description = "run only the cases whose id, group or name matches PATTERN (* and ?; a plain word matches "
                    + "anywhere), e.g. PSN-*, access, window")
    String pattern;

    @Option(names = "--list", description = "list the cases (and what each expects) without running them")
    boolean list;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "200",
            description = "how long silence is awaited where a case expects no answer, 1..60000 (default: ${DEFAULT-VALUE})")
    int timeoutMillis;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5",
            description = "with --target: how long the target may take to connect and to answer each case's "
                    + "exchange (a fresh QP and its regions), 1..600 (default: ${DEFAULT-VALUE}); a target in a slow "
                    + "virtual machine needs more")
    int timeoutSeconds;

    @Option(names = {"-v", "--verbose"}, description = "print every packet sent (>>) and received (<<), decoded on one line")
    boolean verbose;

    @Override
    public Integer call() {
        if (timeoutMillis < 1 || timeoutMillis > 60_000) {
            throw new BadOption("--timeout-ms " + timeoutMillis + ": the silence timeout is 1..60000 ms");
        }
        if (timeoutSeconds < 1 || timeoutSeconds > 600) {
            throw new BadOption("--timeout " + timeoutSeconds + ": the exchange timeout is 1..600 s");
        }
        boolean shm = WireChoice.of(wire) == WireChoice.SHM;
        boolean remote = target != null;
        if (shm && remote) {
            throw new BadOption("--wire shm: the tester reaches only the in-process target over shared memory; "
                    + "leave out --target, or use --wire udp");
        }
        List<ConformanceCase> cases = pattern == null ? CaseTable.all() : CaseTable.matching(pattern);
        if (cases.isEmpty()) {
            throw new BadOption("--case " + pattern + ": matches none of the " + CaseTable.all().size()
                    + " cases (--list shows them)");
        }
        PrintWriter out = spec.commandLine().getOut();
        if (list) {
            Report.list(out, cases);
            return 0;
        }
        InetAddress self = testerAddress();
        PeerAddress third = PeerAddress.of(thirdAddress(self));
        ShmDirectory rings = shm ? ShmDirectory.standard() : null;
        try (Target t = remote ? exchangeTarget() : inProcessTarget(rings);
             TesterPort port = new TesterPort(PeerAddress.of(self), third,
                     shm ? new ShmCarriage(rings, PeerAddress.of(self), third) : new UdpCarriage(PeerAddress.of(self), third),
                     !shm && (remote || RawSocketOpener.rawToLoopbackAsked()), new PacketLog(verbose ? out : null))) {
            out.printf("jrxe conformance: %d cases against %s%n  tester %s, forged packets from %s%n  transmit: %s%n",
                    cases.size(), t.describe(), self.getHostAddress(), third.address().getHostAddress(), port.path());
            if (remote && !port.raw()) {
                out.println("  warning: without the raw socket a kernel rxe target drops every packet for its ICRC");
            }
            out.flush();
            CaseRunner runner = new CaseRunner(t, port, PeerAddress.of(self).gid(), timeoutMillis);
            Report report = new Report(out);
            for (ConformanceCase c : cases) {
                report.row(runner.run(c));
            }
            report.totals();
            return report.failed() == 0 ? 0 : 2;
        }
    }

    private InetAddress testerAddress() {
        InetAddress a = IpAddressOption.parse(addr, "--addr " + addr + ": not an IP address (an IPv4 address, e.g. 127.0.77.2)");
        if (!(a instanceof Inet4Address)) {
            throw new BadOption("--addr " + addr + ": the tester speaks RoCEv2 over IPv4 only; give an IPv4 address");
        }
        if (target == null && a.getHostAddress().equals(TARGET_ADDRESS)) {
            throw new BadOption("--addr " + addr + ": the in-process target uses " + TARGET_ADDRESS + "; pick another address");
        }
        return a;
    }

    /** The address after the tester's (skipping the in-process target's): where forged packets come from. */
    private static InetAddress thirdAddress(InetAddress self) {
        byte[] b = self.getAddress();
        try {
            for (int step = 1; ; step++) {
                byte[] c = b.clone();
                c[3] = (byte) ((b[3] & 0xFF) + step == 255 ? (b[3] & 0xFF) - step : (b[3] & 0xFF) + step);
                InetAddress a = InetAddress.getByAddress(c);
                if (!a.getHostAddress().equals(TARGET_ADDRESS)) {
                    return a;
                }
            }
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 bytes are an IPv4 address", e);
        }
    }

    private Target exchangeTarget() {
        String host = target;
        int port = DEFAULT_RC_OPS_PORT;
        int colon = target.lastIndexOf(':');
        if (colon >= 0 && target.indexOf(':') == colon) {
            host = target.substring(0, colon);
            try {
                port = Integer.parseInt(target.substring(colon + 1));
            } catch (NumberFormatException e) {
                port = -1;
            }
            if (port < 1 || port > 65535) {
                throw new BadOption("--target " + target + ": the port after ':' is a TCP port, 1..65535");
            }
        }
        if (host.isEmpty()) {
            throw new BadOption("--target " + target + ": give a host, e.g. 10.0.0.2 or 10.0.0.2:18516");
        }
        return new ExchangeTarget(host, port, timeoutSeconds * 1000);
    }

    /** @param rings the shared-memory wire's directory, or null for UDP */
    private static Target inProcessTarget(ShmDirectory rings) {
        try {
            return new InProcessTarget(InetAddress.getByName(TARGET_ADDRESS), rings);
        } catch (UnknownHostException e) {
            throw new UserError("cannot use " + TARGET_ADDRESS + ": " + e.getMessage(), e);
        }
    }
}
