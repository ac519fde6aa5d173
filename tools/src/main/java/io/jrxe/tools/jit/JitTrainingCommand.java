package io.jrxe.tools.jit;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.JrxeMain;
import io.jrxe.tools.UserError;
import io.jrxe.tools.common.IpAddressOption;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * `jrxe jit-training`: the workload that the ./jrxe launcher records the JVM's ahead-of-time cache from (JDK 25's
 * -XX:AOTCacheOutput, JEPs 483 and 515). Each bandwidth test runs here with its server and its client in this JVM,
 * so that the cache holds the classes both sides load and the method profiles both sides' data paths make. A
 * later command that starts with the cache has those classes loaded and linked at once, and its JIT compiles the
 * data path from the recorded profiles instead of waiting to gather its own: on a 2-core machine, two JVMs
 * compiling during a benchmark's first seconds take cores from their NICs.
 */
@Command(name = "jit-training", mixinStandardHelpOptions = true,
        description = "Runs the bandwidth benchmarks briefly (send-bw -s 64, write-bw -s 65536), each with its server "
                + "and its client in this one process on two loopback addresses, printing nothing but progress. The "
                + "./jrxe launcher runs it once per build to record the JVM's ahead-of-time cache (classes and method "
                + "profiles), which every later command but the latency ones starts with; JRXE_AOT=0 turns that off.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:every workload ran", "1:a workload failed (its output is printed), or bad options"})
public final class JitTrainingCommand implements Callable<Integer> {
    /**
     * A workload: a command line both sides run, the client also given the server's address. Only the bandwidth
     * tests: the launcher starts the latency commands without the cache (they run C1 alone, which it does not help).
     */
    private record Workload(String... args) {
        String name() {
            return String.join(" ", args);
        }
    }

    private static final List<Workload> WORKLOADS = List.of(
            new Workload("send-bw", "-s", "64"),
            new Workload("write-bw", "-s", "65536", "--if-mtu", "4200"));
    private static final long SERVER_GRACE_SECONDS = 30;

    @Spec
    CommandSpec spec;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "3",
            description = "how long each workload runs, from 3 to 60 (default: ${DEFAULT-VALUE})")
    int seconds;

    @Option(names = "--addr-a", paramLabel = "IP", defaultValue = "127.0.97.1",
            description = "the servers' address (default: ${DEFAULT-VALUE})")
    String serverAddress;

    @Option(names = "--addr-b", paramLabel = "IP", defaultValue = "127.0.97.2",
            description = "the clients' address (default: ${DEFAULT-VALUE})")
    String clientAddress;

    @Override
    public Integer call() throws Exception {
        if (seconds < 3 || seconds > 60) {
            throw new BadOption("--seconds " + seconds + ": from 3 to 60");
        }
        InetAddress server = IpAddressOption.parse(serverAddress, "--addr-a: not an IP address: " + serverAddress);
        InetAddress client = IpAddressOption.parse(clientAddress, "--addr-b: not an IP address: " + clientAddress);
        if (server.equals(client)) {
            throw new BadOption("--addr-a and --addr-b: the servers and the clients need two addresses, not both " + serverAddress);
        }
        PrintWriter err = spec.commandLine().getErr();
        for (Workload w : WORKLOADS) {
            long start = System.nanoTime();
            err.printf("jit-training: %s ...%n", w.name());
            String failure = run(w, server.getHostAddress(), client.getHostAddress(), freePort(server));
            if (failure != null) {
                err.printf("jit-training: %s failed:%n%s", w.name(), failure);
                return 1;
            }
            err.printf("jit-training: %s done in %.1f s%n", w.name(), (System.nanoTime() - start) / 1e9);
        }
        return 0;
    }

    /** Runs both sides of {@code w}; null when both ended well, else what they printed. */
    private String run(Workload w, String serverIp, String clientIp, int port) throws InterruptedException {
        List<String> common = new ArrayList<>(List.of(w.args()));
        common.addAll(List.of("-D", Integer.toString(seconds), "-p", Integer.toString(port)));
        List<String> serverArgs = new ArrayList<>(common);
        serverArgs.addAll(List.of("--addr", serverIp, "-d", "jrxe0"));
        List<String> clientArgs = new ArrayList<>(common);
        clientArgs.addAll(List.of("--addr", clientIp, "-d", "jrxe1", serverIp));
        StringWriter serverErr = new StringWriter();
        int[] serverStatus = {-1};
        Thread serverThread = new Thread(() -> serverStatus[0] = JrxeMain.run(serverArgs.toArray(String[]::new),
                new PrintWriter(Writer.nullWriter()), new PrintWriter(serverErr, true)), "jit-training-server");
        serverThread.setDaemon(true);
        serverThread.start();
        StringWriter clientErr = new StringWriter();
        int clientStatus = JrxeMain.run(clientArgs.toArray(String[]::new), new PrintWriter(Writer.nullWriter()),
                new PrintWriter(clientErr, true));
        serverThread.join(TimeUnit.SECONDS.toMillis(SERVER_GRACE_SECONDS));
        if (clientStatus == 0 && serverStatus[0] == 0) {
            return null;
        }
        return "  client (status " + clientStatus + "): " + clientErr + "\n  server (status "
                + (serverThread.isAlive() ? "still running" : serverStatus[0]) + "): " + serverErr + "\n";
    }

    /** A TCP port free on {@code at} now, for the workload's connection (perftest's exchange). */
    private static int freePort(InetAddress at) {
        try (ServerSocket s = new ServerSocket()) {
            s.bind(new InetSocketAddress(at, 0));
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UserError("no TCP port free on " + at.getHostAddress() + ": " + e.getMessage(), e);
        }
    }
}
