package io.jrxe.tools.view;

import io.jrxe.tools.common.FileErrors;
import io.jrxe.tools.UserError;
import io.jrxe.tools.analyze.AnalysisPage;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe view CAPTURE`: the capture as a ladder diagram per connection, in one self-contained HTML page. */
@Command(name = "view", mixinStandardHelpOptions = true,
        description = {"Draws a pcap or pcapng capture (jrxe's, with its per-packet notes, or tcpdump's of kernel rxe) as a "
                + "ladder diagram per connection in one HTML file that needs no network: a lane per endpoint (IP "
                + "address and QP), an arrow per packet labelled with opcode, PSN and ack request, messages bracketed, "
                + "NAKs, RNR waits, retransmissions, drops and losses in colour, time downwards with long gaps "
                + "compressed. Click an arrow for its headers field by field; filter by QP; a summary table per QP.",
            "The page opens on the analysis of the whole capture (jrxe analyze's findings and graphs). A capture of at "
                + "most --max-packets frames is drawn whole; of a larger one, the ladder holds its first --max-packets "
                + "frames and the frames around each finding and each --around FRAME, and a click on a finding or a "
                + "stretch draws that stretch's ladder: the page stays small and quick whatever the capture's size, and "
                + "says what it does not draw.",
            "Prints the path of the page written."},
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {"0:the page was written", "1:bad options",
            "2:the capture could not be read or the page not written"})
public final class ViewCommand implements Callable<Integer> {
    static final int DEFAULT_MAX_PACKETS = 5000;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "CAPTURE", description = "the capture file (pcap or pcapng)")
    Path capture;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE.html",
            description = "where to write the page (default: CAPTURE with .html for its extension)")
    Path output;

    @Option(names = "--max-packets", paramLabel = "N", defaultValue = "" + DEFAULT_MAX_PACKETS,
            description = "a capture of more frames than N is drawn in stretches: its first N frames and those "
                    + "around each finding and --around frame (default: ${DEFAULT-VALUE})")
    int maxPackets;

    @Option(names = "--around", paramLabel = "FRAME", split = ",",
            description = "also draw the ladder of the frames around FRAME (as Wireshark numbers them) in a capture "
                    + "drawn in stretches; may be repeated")
    List<Long> around = new ArrayList<>();

    @Override
    public Integer call() {
        if (maxPackets < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-packets must be at least 1");
        }
        Path target = output != null ? output : defaultOutput(capture);
        if (target.toAbsolutePath().normalize().equals(capture.toAbsolutePath().normalize())) {
            throw new UserError("the page would overwrite the capture " + capture + ": give -o FILE.html");
        }
        String title = capture.getFileName().toString();
        AnalysisPage analysis = AnalysisPage.of(capture);
        List<LadderStretch> stretches = new ArrayList<>();
        LoadedCapture loaded;
        String page;
        if (analysis.frames() <= maxPackets) {
            loaded = CaptureLoad.read(capture, maxPackets);
            List<Connection> connections = ConnectionFinder.find(loaded.packets());
            LadderMarks marks = LadderMarks.of(loaded.packets().size(), connections);
            page = LadderPage.html(title, loaded, connections, marks, analysis, stretches);
        } else {
            List<long[]> plan = StretchPlan.of(analysis.frames(), maxPackets, analysis.findingFrames(), around);
            List<LoadedCapture> parts = CaptureLoad.stretches(capture, plan);
            List<Connection> firstConnections = null;
            LadderMarks firstMarks = null;
            for (int i = 0; i < parts.size(); i++) {
                LoadedCapture part = parts.get(i);
                List<Connection> connections = ConnectionFinder.find(part.packets());
                LadderMarks marks = LadderMarks.of(part.packets().size(), connections);
                if (i == 0) {
                    firstConnections = connections;
                    firstMarks = marks;
                }
                long[] r = plan.get(i);
                stretches.add(new LadderStretch(r[0], r[1], label(r, analysis.findingFrames()),
                        LadderJson.of(title, part, connections, marks)));
            }
            loaded = parts.getFirst();
            page = LadderPage.html(title, loaded, firstConnections, firstMarks, analysis, stretches);
        }
        try {
            Files.writeString(target, page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("cannot write " + target + ": " + FileErrors.why(e), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(target);
        if (!stretches.isEmpty()) {
            out.println("note: the capture holds " + analysis.frames() + " frames, more than --max-packets "
                    + maxPackets + ": the ladder draws " + stretches.size() + " stretches of them ("
                    + LadderPage.framesIn(stretches) + " frames), the analysis all of them");
        }
        if (loaded.damage() != null) {
            out.println("note: " + loaded.damage() + "; the packets before that are drawn");
        }
        if (loaded.packets().isEmpty()) {
            out.println("note: the capture holds no RoCEv2 packets");
        }
        out.flush();
        return 0;
    }

    /** The words of a stretch's link: its frames and how many findings it shows. */
    private static String label(long[] r, List<Long> findingFrames) {
        long n = findingFrames.stream().filter(f -> r[0] <= f && f <= r[1]).count();
        return "#" + r[0] + "..#" + r[1] + (r[0] == 1 ? " (the start)" : "")
                + (n == 0 ? "" : ": " + n + (n == 1 ? " finding" : " findings"));
    }

    /** The capture's path with its extension replaced by .html (added when it has none). */
    static Path defaultOutput(Path capture) {
        String name = capture.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        return capture.resolveSibling(base + ".html");
    }
}
