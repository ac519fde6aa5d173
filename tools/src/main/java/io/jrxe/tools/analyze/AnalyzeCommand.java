package io.jrxe.tools.analyze;

import io.jrxe.tools.UserError;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** `jrxe analyze CAPTURE`: expert analysis of the RoCEv2 traffic in a capture, per connection and direction. */
@Command(name = "analyze", mixinStandardHelpOptions = true,
        description = {"Analyses the RoCEv2 traffic of a pcap or pcapng capture (jrxe's, or tcpdump's of kernel rxe or "
                + "of hardware) as Wireshark's expert info analyses TCP: per connection and direction, PSNs the capture "
                + "skipped (lost before the capture point) and whether they were resent; retransmissions and their cause "
                + "(sequence NAK, RNR NAK, implied NAK, ACK timeout); copies and reordering; NAK and RNR episodes with "
                + "their waits; requests never acknowledged; READ and atomic replays; bad ICRCs; CM handshakes with their "
                + "timings, rejections and retries; CNPs and ECN marks. Per connection: messages, data, goodput, "
                + "request-to-response times (median, p99) and the longest stall with its cause.",
            "With --graphs DIR, the time-sequence and goodput graphs are SVG files too (docs/analyze.md).",
            "Each finding names its frame (as Wireshark numbers them) and its time since the first frame. The capture "
                + "is read once, as a stream: its size does not matter."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:nothing abnormal was found (notes and chat only)",
            "1:a warning or an error was found; or bad options",
            "2:the capture could not be read, or is damaged part way (what came before the damage is analysed)"})
public final class AnalyzeCommand implements Callable<Integer> {
    static final int DEFAULT_MAX_FINDINGS = 20;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CAPTURE", description = "the capture file (pcap or pcapng)")
    Path capture;

    @Option(names = "--json", description = "the analysis as one JSON document instead of text")
    boolean json;

    @Option(names = "--max-findings", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_FINDINGS,
            description = "list at most N findings of each kind per connection side, and count the rest "
                    + "(0: list them all; default: ${DEFAULT-VALUE})")
    int maxFindings;

    @Option(names = "--graphs", paramLabel = "DIR",
            description = "also write the graphs as SVG files into DIR: per connection its goodput over time, and per "
                    + "side that sent requests its time-sequence graph (PSN against time, with resends, NAKs, RNR NAKs "
                    + "and their waits, PSNs the capture skipped, copies and late packets); the text report ends with their paths")
    Path graphs;

    @Override
    public Integer call() {
        if (maxFindings < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-findings must be 0 or more");
        }
        CaptureAnalysis analysis = CaptureAnalysis.of(capture, maxFindings);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JsonReport.of(analysis));
            out.flush();
        } else {
            TextReport.print(analysis, out);
        }
        if (graphs != null) {
            for (Path written : GraphFiles.write(analysis, graphs)) {
                if (!json) {
                    out.println("graph: " + written);
                }
            }
            out.flush();
        }
        if (analysis.damage != null) {
            throw new UserError(analysis.damage + "; the frames before it were analysed");
        }
        return analysis.abnormal() ? 1 : 0;
    }
}
