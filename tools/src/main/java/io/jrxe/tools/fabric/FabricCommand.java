package io.jrxe.tools.fabric;

import io.jrxe.rnic.cc.CongestionControlChoice;
import io.jrxe.tools.common.BitRateConverter;
import io.jrxe.tools.common.ByteSizeConverter;
import io.jrxe.tools.common.PlotFile;
import io.jrxe.tools.common.TimeSpanConverter;
import io.jrxe.tools.regmr.PlotFormat;
import io.jrxe.wire.sim.fabric.PfcThresholds;
import io.jrxe.wire.sim.fabric.RedMarking;
import io.jrxe.wire.sim.fabric.Topology;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/** `jrxe fabric`: jrxe NICs in a simulated fabric of links and switches, run in virtual time, and what congestion did. */
@Command(name = "fabric", mixinStandardHelpOptions = true,
        description = {
            "Runs jrxe NICs in a simulated fabric, in virtual time: links with a rate and a delay, switches with output "
                + "queues that mark ECN (RED: from 0 at Kmin to Pmax at Kmax, always above), drop what does not fit, or "
                + "with PFC pause the link that feeds them. Each flow is an RC QP writing its receiver with RDMA WRITEs; "
                + "the NICs' own go-back-N, CNPs and congestion control (none, dcqcn or timely) do the rest.",
            "Topologies: incast (N senders, one switch, one receiver: the receiver's link is the bottleneck), dumbbell "
                + "(N senders on switch A, N receivers on switch B, one link between), victim (an incast behind a first "
                + "switch, plus one flow from that switch to a receiver of its own, whose path is not congested).",
            "Prints per flow its goodput (whole run and second half), completion time, retries (go-back-N), CNPs and "
                + "rate cuts, time paused; per switch queue its depth, marks, drops and pauses; Jain's fairness index "
                + "and the bottleneck's busy share over the second half. The same seed gives the same run: the summary "
                + "prints the seed and a fingerprint of every delivery and drop.",
            "Sizes are bytes with K, M or G (powers of 1024); rates bit/s with K, M, G (powers of 1000); durations with "
                + "ns, us, ms or s. Example: jrxe fabric --topology incast --senders 8 --link 25G --cc dcqcn --pfc off"},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the run finished and was reported", "1:bad options", "2:the run could not be made"})
public final class FabricCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--topology", paramLabel = "KIND", defaultValue = "incast",
            description = "incast, dumbbell or victim (default: ${DEFAULT-VALUE})")
    String topology;

    @Option(names = "--senders", paramLabel = "N", defaultValue = "8", description = "senders (default: ${DEFAULT-VALUE})")
    int senders;

    @Option(names = "--link", paramLabel = "RATE", defaultValue = "10G", converter = BitRateConverter.class,
            description = "every host link's rate (default: 10G)")
    long link;

    @Option(names = "--delay", paramLabel = "TIME", defaultValue = "1us", converter = TimeSpanConverter.class,
            description = "every link's propagation delay (default: 1us)")
    long delay;

    @Option(names = "--buffer", paramLabel = "SIZE", defaultValue = "256K", converter = ByteSizeConverter.class,
            description = "each switch output queue's buffer (default: 256K)")
    long buffer;

    @Option(names = "--kmin", paramLabel = "SIZE", defaultValue = "20K", converter = ByteSizeConverter.class,
            description = "RED: the depth below which nothing is marked (default: 20K)")
    long kmin;

    @Option(names = "--kmax", paramLabel = "SIZE", defaultValue = "200K", converter = ByteSizeConverter.class,
            description = "RED: the depth above which everything is marked (default: 200K)")
    long kmax;

    @Option(names = "--pmax", paramLabel = "P", defaultValue = "0.2",
            description = "RED: the marking probability at Kmax (default: ${DEFAULT-VALUE})")
    double pmax;

    @Option(names = "--pfc", paramLabel = "on|off", defaultValue = "off",
            description = "PFC instead of tail drop (default: ${DEFAULT-VALUE})")
    String pfc;

    @Option(names = "--xoff", paramLabel = "SIZE", defaultValue = "16K", converter = ByteSizeConverter.class,
            description = "PFC: a switch pauses a link once it holds this much that came by it (default: 16K)")
    long xoff;

    @Option(names = "--xon", paramLabel = "SIZE", defaultValue = "8K", converter = ByteSizeConverter.class,
            description = "PFC: and resumes it once it holds this little (default: 8K)")
    long xon;

    @Option(names = "--cc", paramLabel = "NAME[:K=V,...]", defaultValue = "dcqcn",
            description = "the NICs' congestion control: " + CongestionControlChoice.NAMES + ", with settings after a "
                    + "colon as on a NIC (dcqcn:profile=connectx); a rate-based part's line rate is the link's unless "
                    + "set (default: ${DEFAULT-VALUE})")
    String cc;

    @Option(names = "--ecn", paramLabel = "on|off", defaultValue = "on",
            description = "whether the NICs send ECN-capable packets, which switches mark instead of dropping "
                    + "(default: ${DEFAULT-VALUE})")
    String ecn;

    @Option(names = "--duration", paramLabel = "TIME", converter = TimeSpanConverter.class,
            description = "how long the flows send, in virtual time (default: 10ms; with --bytes, the most a run may "
                    + "take: 1s)")
    Long duration;

    @Option(names = "--bytes", paramLabel = "SIZE", defaultValue = "0", converter = ByteSizeConverter.class,
            description = "each flow writes this much, then stops; its completion time is reported (default: send for "
                    + "the duration)")
    long bytes;

    @Option(names = "--message", paramLabel = "SIZE", defaultValue = "64K", converter = ByteSizeConverter.class,
            description = "the size of each RDMA WRITE (default: 64K)")
    long message;

    @Option(names = "--depth", paramLabel = "N", defaultValue = "8",
            description = "WRITEs each flow keeps outstanding (default: ${DEFAULT-VALUE})")
    int depth;

    @Option(names = "--mtu", paramLabel = "BYTES", defaultValue = "1024",
            description = "the path MTU: 256, 512, 1024, 2048 or 4096 (default: ${DEFAULT-VALUE})")
    int mtu;

    @Option(names = "--seed", paramLabel = "S", description = "the seed of RED's draws (default: random; printed)")
    Long seed;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "200",
            description = "snapshots of the fabric over the run: the plot's points (default: ${DEFAULT-VALUE})")
    int samples;

    @Option(names = "--json", description = "print the report as one JSON object")
    boolean json;

    @Option(names = "--plot", paramLabel = "FILE",
            description = "draw each flow's rate and the bottleneck queue's depth over time to FILE (.png or .svg)")
    Path plot;

    @Override
    public Integer call() throws Exception {
        FabricScenario scenario = scenario();
        PlotFormat format = plot == null ? null : PlotFormat.of(plot).orElseThrow(() -> bad(
                "--plot " + plot + ": the file must end in .png or .svg"));
        String headroom = pfcHeadroomShortfall(scenario);
        if (headroom != null) {
            spec.commandLine().getErr().println("jrxe fabric: note: " + headroom);
        }
        FabricResult result;
        try {
            result = FabricRun.run(scenario);
        } catch (io.jrxe.verbs.VerbsException e) {
            spec.commandLine().getErr().println("jrxe fabric: the run could not be made: " + e.getMessage());
            return 2;
        }
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(FabricJson.text(result));
        } else {
            FabricText.print(out, result);
        }
        if (plot != null) {
            PlotFile.write(plot, () -> FabricPlot.write(result, plot, format));
            if (!json) {
                out.println("plot: " + plot);
            }
        }
        out.flush();
        return 0;
    }

    private FabricScenario scenario() {
        if (!List.of(Topology.KINDS.split(", ")).contains(topology)) {
            throw bad("--topology " + topology + ": there are " + Topology.KINDS);
        }
        boolean pfcOn = onOff("--pfc", pfc);
        boolean ecnOn = onOff("--ecn", ecn);
        if (senders < 1 || senders > 250) {
            throw bad("--senders " + senders + ": 1 to 250");
        }
        if (!List.of(256, 512, 1024, 2048, 4096).contains(mtu)) {
            throw bad("--mtu " + mtu + ": 256, 512, 1024, 2048 or 4096");
        }
        if (depth < 1 || depth > 1024) {
            throw bad("--depth " + depth + ": 1 to 1024");
        }
        if (message < 1 || message > (1 << 24)) {
            throw bad("--message " + message + ": 1 byte to 16M");
        }
        if (samples < 2 || samples > 100_000) {
            throw bad("--samples " + samples + ": 2 to 100000");
        }
        long time = duration != null ? duration : bytes > 0 ? 1_000_000_000L : 10_000_000L;
        if (time <= 0) {
            throw bad("--duration must be above 0");
        }
        FabricScenario s;
        try {
            RedMarking marking = new RedMarking(kmin, kmax, pmax);
            PfcThresholds thresholds = pfcOn ? new PfcThresholds(xoff, xon) : null;
            s = new FabricScenario(topology, senders, link, delay, buffer, marking, thresholds, cc,
                    ecnOn, time, bytes, (int) message, depth, mtu,
                    seed != null ? seed : ThreadLocalRandom.current().nextLong(1L << 32), samples);
            s.queues();
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        try {
            FabricHost.congestionControl(s);
        } catch (IllegalArgumentException e) {
            throw bad("--cc " + cc + ": " + e.getMessage());
        }
        return s;
    }

    /**
     * Why PFC may still drop in this scenario, or null: each queue has a buffer of its own, and every host link that
     * can feed one queue may bring it XOFF and then what it carries while the PAUSE travels (its delay both ways and a
     * frame at each end).
     */
    static String pfcHeadroomShortfall(FabricScenario s) {
        if (s.pfc() == null) {
            return null;
        }
        int feeding = s.topology().equals("victim") ? s.senders() + 1 : s.senders();
        long frame = s.mtu() + 100L;
        long perLink = s.pfc().xoffBytes() + (long) (2.0 * s.delayNanos() * s.linkBits() / 8e9) + 2 * frame;
        long worst = feeding * perLink;
        if (worst <= s.bufferBytes()) {
            return null;
        }
        return String.format(java.util.Locale.ROOT, "with PFC, %d links feeding one queue may bring it %,d bytes "
                + "(XOFF and about %,d in flight each), more than its buffer of %,d: it may still drop", feeding, worst,
                perLink - s.pfc().xoffBytes(), s.bufferBytes());
    }

    private boolean onOff(String option, String value) {
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw bad(option + " " + value + ": on or off");
        };
    }

    private CommandLine.ParameterException bad(String why) {
        return new CommandLine.ParameterException(spec.commandLine(), why);
    }
}
