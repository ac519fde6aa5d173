package io.jrxe.tools.compare;

import io.jrxe.verbs.Mtu;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.IpAddressOption;
import io.jrxe.tools.common.ProviderChoice;
import io.jrxe.verbs.facade.Verbs;
import io.jrxe.verbs.nativ.NativeProvider;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** `jrxe compare`: the same steps on jrxe and on a kernel device (rxe0), side by side. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Run the same steps on jrxe NICs and on a kernel RDMA device (rxe0), through the same verbs "
                + "calls, and print them side by side: the completions (opcode, status, byte count, immediate data), "
                + "memory, the QPs' states, the packets (opcode, PSN, ACKs) and the counters that moved; and for the "
                + "perf steps bandwidth and latency. A difference in behaviour is marked ! (a jrxe bug unless the README "
                + "documents it); speed, and what depends on timing, is marked ~ and not compared. Each step has a new "
                + "pair of RC QPs, A (the requester) and B.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:both setups behaved the same", "1:they differ in behaviour, or bad options",
            "2:a setup could not be made (no kernel RDMA device, an address taken, ...)"})
public final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "NAME", defaultValue = "rxe0",
            description = "the kernel's device to compare with; its two QPs reach each other at its RoCE v2 GID "
                    + "(default: ${DEFAULT-VALUE})")
    String deviceName;

    @Option(names = "--scenario", paramLabel = "NAME", defaultValue = "all",
            description = "demo (the steps of jrxe demo), errors (wrong rkey, out of bounds, too long, RNR, a QP that "
                    + "is gone), perf (bandwidth and latency), mistakes (those of jrxe mistakes a kernel device allows), "
                    + "placement (IBTA 1.5 ATOMIC_WRITE and FLUSH: alone, after a write, refused), odp (on-demand "
                    + "memory: first touch by every kind of access, prefetch, invalidation), or all (demo, errors and "
                    + "perf; not placement or odp, which kernels before 6.2 and 6.17 lack; default: ${DEFAULT-VALUE})")
    String scenario;

    @Option(names = "--self-test", description = "compare jrxe with jrxe: two NICs (--addr-a, --addr-b) against one "
            + "NIC with both QPs (--addr-c), no kernel device needed")
    boolean selfTest;

    @Option(names = "--jrxe-loopback", description = "jrxe's side is one NIC (--addr-a) with both QPs on it, as on the "
            + "kernel's side, instead of two NICs")
    boolean jrxeLoopback;

    @Option(names = "--addr-a", paramLabel = "IP", defaultValue = "127.0.0.1", description = "jrxe's A NIC (default: ${DEFAULT-VALUE})")
    String addressA;

    @Option(names = "--addr-b", paramLabel = "IP", defaultValue = "127.0.0.2", description = "jrxe's B NIC (default: ${DEFAULT-VALUE})")
    String addressB;

    @Option(names = "--addr-c", paramLabel = "IP", defaultValue = "127.0.0.3",
            description = "with --self-test, the NIC of the second setup (default: ${DEFAULT-VALUE})")
    String addressC;

    @Option(names = "--native-capture", paramLabel = "FILE",
            description = "the kernel device's packets: a capture (pcap or pcapng) taken during this run")
    Path nativeCapture;

    @Option(names = "--tcpdump", paramLabel = "IFACE",
            description = "capture the kernel device's packets with tcpdump on IFACE during the run")
    String tcpdumpInterface;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", defaultValue = "4096",
            description = "the message size of the perf steps (default: ${DEFAULT-VALUE})")
    int size;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = "1000",
            description = "the messages of each perf step (default: ${DEFAULT-VALUE})")
    int iterations;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "5",
            description = "how long a step waits for each completion it expects (default: ${DEFAULT-VALUE})")
    double timeoutSeconds;

    /** A step whose rkey the second setup gets wrong: how a test makes the setups differ. */
    String injectIntoRight;

    @Override
    public Integer call() {
        List<Step> steps = steps();
        long timeoutNanos = timeoutNanos();
        if (nativeCapture != null && tcpdumpInterface != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--native-capture and --tcpdump: one or the other");
        }
        if (selfTest && (nativeCapture != null || tcpdumpInterface != null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--self-test has no kernel device to capture");
        }
        ProviderChoice.Native kernel = selfTest ? null
                : (ProviderChoice.Native) ProviderChoice.of(deviceName, NativeProvider.NAME, Verbs.nativeProvider());
        try (Rig left = jrxeRig(); Rig right = kernel == null ? Rigs.jrxeLoopback("jrxe2", address(addressC, "--addr-c"))
                : Rigs.kernel(kernel.device(), kernelPackets())) {
            Mtu mtu = left.activeMtu().bytes() <= right.activeMtu().bytes() ? left.activeMtu() : right.activeMtu();
            PrintWriter out = spec.commandLine().getOut();
            header(out, left, right, mtu);
            CompareRun leftRun = new CompareRun(left, mtu, timeoutNanos, null);
            CompareRun rightRun = new CompareRun(right, mtu, timeoutNanos, injectIntoRight);
            List<Observation> l = leftRun.run(steps);
            List<Observation> r = rightRun.run(steps);
            SideBySide report = new SideBySide(out, left.counters().keySet(), right.counters().keySet());
            for (int i = 0; i < steps.size(); i++) {
                report.step(i + 1, l.get(i), r.get(i), left.column, right.column);
            }
            for (Rig rig : List.of(left, right)) {
                String why = (rig == left ? leftRun : rightRun).packetsWhy();
                if (why != null) {
                    out.printf("%s's packets were not seen: %s.%n", rig.column, why);
                }
            }
            return summary(out, report.differences());
        }
    }

    private Rig jrxeRig() {
        InetAddress a = address(addressA, "--addr-a");
        if (jrxeLoopback) {
            return Rigs.jrxeLoopback("jrxe0", a);
        }
        InetAddress b = address(addressB, "--addr-b");
        if (a.equals(b)) {
            throw new UserError("--addr-a and --addr-b: two NICs need two addresses, not both " + addressA
                    + " (--jrxe-loopback puts both QPs on one)");
        }
        return Rigs.jrxePair("jrxe0", a, "jrxe1", b);
    }

    private PacketSource kernelPackets() {
        if (nativeCapture != null) {
            return PacketSource.file(nativeCapture);
        }
        if (tcpdumpInterface != null) {
            return TcpdumpCapture.start(tcpdumpInterface);
        }
        return PacketSource.none("rxe hands the packets between two QPs of one device back inside the kernel, so no "
                + "interface sees them (--tcpdump IFACE or --native-capture FILE read packets that cross one)");
    }

    private List<Step> steps() {
        if (size < 1 || size > (1 << 30)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-s/--size " + size + ": 1 to 1073741824 bytes");
        }
        if (size > Node.BUFFER) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-s/--size " + size + ": at most " + Node.BUFFER
                    + " (the steps' buffers)");
        }
        if (iterations < 1 || iterations > 10_000_000) {
            throw new CommandLine.ParameterException(spec.commandLine(), "-n/--iters " + iterations + ": 1 to 10000000");
        }
        return switch (scenario) {
            case "demo" -> DemoSteps.all();
            case "errors" -> ErrorSteps.all();
            case "perf" -> PerfSteps.all(size, iterations);
            case "mistakes" -> MistakeSteps.all();
            case "placement" -> PlacementSteps.all();
            case "odp" -> OdpSteps.all();
            case "all" -> {
                List<Step> all = new java.util.ArrayList<>(DemoSteps.all());
                all.addAll(ErrorSteps.all());
                all.addAll(PerfSteps.all(size, iterations));
                yield all;
            }
            default -> throw new CommandLine.ParameterException(spec.commandLine(), "--scenario " + scenario
                    + ": demo, errors, perf, mistakes, placement, odp or all");
        };
    }

    private long timeoutNanos() {
        if (Double.isNaN(timeoutSeconds) || timeoutSeconds <= 0 || timeoutSeconds > 3600) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--timeout " + timeoutSeconds
                    + ": above 0 and at most 3600 seconds");
        }
        return (long) (timeoutSeconds * TimeUnit.SECONDS.toNanos(1));
    }

    private static InetAddress address(String literal, String option) {
        return IpAddressOption.parse(literal, option + " " + literal + ": not an IP address");
    }

    private static void header(PrintWriter out, Rig left, Rig right, Mtu mtu) {
        out.printf("jrxe compare: the same verbs calls on two setups, side by side (! differs in behaviour, ~ shown, "
                + "not compared)%n");
        out.printf("  %-6s %s%n", left.column, left.description);
        out.printf("  %-6s %s%n", right.column, right.description);
        out.printf("  path MTU %d; each step has a new pair of RC QPs, A's PSNs from 0x%x, B's from 0x%x%n%n", mtu.bytes(),
                QpSettings.PSN_A, QpSettings.PSN_B);
    }

    private static int summary(PrintWriter out, List<String> differences) {
        if (differences.isEmpty()) {
            out.printf("Same behaviour in every step.%n");
        } else {
            out.printf("%d difference(s) in behaviour, each a jrxe bug unless the README documents it:%n", differences.size());
            for (String d : differences) {
                out.printf("  %s%n", d);
            }
        }
        out.flush();
        return differences.isEmpty() ? 0 : 1;
    }
}
