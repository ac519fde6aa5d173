package io.jrxe.tools.stat;

import io.jrxe.tools.UserError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import javax.management.remote.JMXConnector;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * `jrxe stat`: the counters and QPs of the jrxe devices running in another JVM, as `rdma statistic show` and
 * `rdma resource show qp` give them for kernel devices. Reads the MBeans the devices publish, through the Attach
 * API and the JVM's local JMX connector.
 */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = "The counters (and with --qps the QPs) of the jrxe devices of a running Java process, once or "
                + "every -i seconds: `rdma statistic show` and `rdma resource show qp` for jrxe. Without PID: the local "
                + "Java processes that have jrxe devices, or the one if there is exactly one.")
public final class StatCommand implements Callable<Integer> {
    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "PID", description = "the process whose devices to show")
    Long pid;

    @Option(names = {"-i", "--interval"}, paramLabel = "SECONDS",
            description = "report again every SECONDS seconds (0.1..3600), until -c reports or until interrupted")
    Double interval;

    @Option(names = {"-c", "--count"}, paramLabel = "COUNT",
            description = "stop after COUNT reports (1..1000000; with it, -i defaults to 1 second)")
    Integer count;

    @Option(names = "--qps", description = "also one line per QP: number, peer's number, type, state, PSNs, "
            + "outstanding work requests, peer address")
    boolean qps;

    @Override
    public Integer call() throws Exception {
        if (pid != null && pid < 1) {
            throw bad("PID " + pid + ": a process id is 1 or more");
        }
        if (interval != null && (interval < 0.1 || interval > 3600)) {
            throw bad("-i/--interval " + interval + ": an interval is 0.1..3600 seconds");
        }
        if (count != null && (count < 1 || count > 1_000_000)) {
            throw bad("-c/--count " + count + ": a count is 1..1000000");
        }
        PrintWriter out = spec.commandLine().getOut();
        JrxeJvm jvm;
        if (pid != null) {
            jvm = JrxeJvm.of(pid);
        } else {
            List<JrxeJvm> found = JrxeJvm.local();
            if (found.isEmpty()) {
                throw new UserError("no local Java process (of this user) has a jrxe device");
            }
            if (found.size() > 1) {
                for (JrxeJvm j : found) {
                    out.println(j.pid() + " " + String.join(",", j.devices()) + " " + j.name());
                }
                out.flush();
                return 0;
            }
            jvm = found.getFirst();
        }
        report(jvm, out);
        return 0;
    }

    private void report(JrxeJvm jvm, PrintWriter out) throws InterruptedException {
        int reports = count != null ? count : interval != null ? Integer.MAX_VALUE : 1;
        long periodNanos = (long) ((interval != null ? interval : 1.0) * 1e9);
        try (JMXConnector connector = jvm.connect()) {
            long next = System.nanoTime();
            for (int i = 0; i < reports; i++) {
                if (i > 0) {
                    next += periodNanos;
                    java.util.concurrent.TimeUnit.NANOSECONDS.sleep(Math.max(0, next - System.nanoTime()));
                    out.println();
                }
                StatReport.print(connector.getMBeanServerConnection(), jvm.pid(), qps, out);
            }
        } catch (IOException e) {
            throw new UserError("lost the connection to process " + jvm.pid() + ": " + e.getMessage(), e);
        }
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
