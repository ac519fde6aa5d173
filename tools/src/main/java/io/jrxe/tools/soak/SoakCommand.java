package io.jrxe.tools.soak;

import io.jrxe.tools.common.DeviceOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/** `jrxe soak`: a seeded random mix of every RC operation between two simulated NICs on a faulty network, every byte checked. */
@Command(name = "soak", mixinStandardHelpOptions = true,
        description = {
            "Runs a seeded random mix of every RC operation (SEND, SEND_WITH_IMM, RDMA_WRITE, RDMA_WRITE_WITH_IMM, "
                + "RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD; 0 to several MTUs; several outstanding per QP, "
                + "both directions) over several QPs between two simulated NICs, on a network that loses, reorders, "
                + "duplicates and corrupts packets in both directions. Every byte and every completion is checked.",
            "A QP pair whose requester runs out of retries (RETRY_EXC_ERR) has failed as RC must on a bad enough "
                + "network: that is no test failure. It gets no new work, its outstanding operations count as "
                + "expected failures (each must still complete exactly once), and only the bytes they may have "
                + "written in part go unchecked.",
            "Progress goes to stderr; stdout gets one line: 'ops=N ok=N failed_qp=N expected_failures=N mismatches=N "
                + "lost_completions=N duplicated_completions=N retransmits=N seed=S'. The same seed replays the same run."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {
            "0:every operation completed once, with the right data, successfully or with its failed QP pair",
            "1:bad options; or some mismatch (wrong data or completion), lost or duplicated completion; or every "
                + "QP pair failed (no pair survived: nothing was tested)",
            "2:the soak could not run",
        })
public final class SoakCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--seed", paramLabel = "S", description = "the seed of the operation mix and of the faults (default: random; the summary prints it)")
    Long seed;

    @Option(names = "--ops", paramLabel = "N", defaultValue = "" + SoakConfig.DEFAULT_OPS,
            description = "operations to run (default: ${DEFAULT-VALUE})")
    int ops;

    @Option(names = "--qps", paramLabel = "Q", defaultValue = "" + SoakConfig.DEFAULT_QPS,
            description = "RC QP pairs between the two NICs, 1.." + SoakConfig.MAX_QPS + " (default: ${DEFAULT-VALUE})")
    int qps;

    @Option(names = "--loss", paramLabel = "P", defaultValue = "" + SoakConfig.DEFAULT_LOSS,
            description = "probability that a packet is lost (default: ${DEFAULT-VALUE})")
    double loss;

    @Option(names = "--reorder", paramLabel = "P", defaultValue = "" + SoakConfig.DEFAULT_REORDER,
            description = "probability that a packet is held back by up to 40 us, so that later ones pass it (default: ${DEFAULT-VALUE})")
    double reorder;

    @Option(names = "--dup", paramLabel = "P", defaultValue = "" + SoakConfig.DEFAULT_DUPLICATE,
            description = "probability that a packet arrives twice (default: ${DEFAULT-VALUE})")
    double duplicate;

    @Option(names = "--corrupt", paramLabel = "P", defaultValue = "" + SoakConfig.DEFAULT_CORRUPT,
            description = "probability that a packet has a bit flipped (its ICRC then fails) (default: ${DEFAULT-VALUE})")
    double corrupt;

    @Option(names = "--with", split = ",", paramLabel = "KIND",
            description = "add to the mix (comma-separated): atomic-write, flush (RC operations), uc (one more QP pair, of UC), "
                    + "mw (memory windows: bound, accessed, invalidated), srq (RC receives from a shared receive queue), "
                    + "ud (one more QP pair, of UD) "
                    + "(default: none, so that a seed replays the run it always did)")
    List<String> with = List.of();

    @Option(names = "--faults", paramLabel = "SPEC",
            description = "each NIC also does these faults to its own packets, on send and on receive, as --faults does "
                    + "on real sockets (docs/commands.md, --faults): rules such as 'rnr,dir=recv' (an ACK turned into an RNR "
                    + "NAK) or 'drop,nth=3' (the third packet of each message), and rates; each NIC's draws are seeded from "
                    + "--seed (default: none)")
    String faults;

    @Option(names = "--trace", description = "write every trace event of both NICs' engines to stderr, with its virtual time in ns")
    boolean trace;

    @Override
    public Integer call() throws Exception {
        String bad = SoakConfig.problem(ops, qps, loss, reorder, duplicate, corrupt);
        bad = bad != null ? bad : SoakExtra.problem(with);
        if (bad != null) {
            throw new CommandLine.ParameterException(spec.commandLine(), bad);
        }
        long s = seed != null ? seed : ThreadLocalRandom.current().nextLong(1L << 32);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        SoakConfig config = new SoakConfig(s, ops, qps, loss, reorder, duplicate, corrupt).with(with)
                .withNicFaults(DeviceOptions.faults(faults));
        SoakResult result = new SoakRun(config)
                .diagnostics(err)
                .trace(trace ? err : null)
                .progress((done, total, nanos) -> {
                    if (total >= 1000) {
                        err.println("soak: " + done + "/" + total + " ops done, virtual time " + SoakRun.seconds(nanos) + " s");
                        err.flush();
                    }
                })
                .run();
        out.println(result.summary());
        out.flush();
        return result.passed() ? 0 : 1;
    }
}
