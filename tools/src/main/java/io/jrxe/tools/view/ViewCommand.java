package io.jrxe.tools.view;

import io.jrxe.tools.common.FileErrors;
import io.jrxe.tools.UserError;
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
import java.util.List;
import java.util.concurrent.Callable;

/** `jrxe view CAPTURE`: the capture as a ladder diagram per connection, in one self-contained HTML page. */
@Command(name = "view", mixinStandardHelpOptions = true,
        description = {"Draws a pcap or pcapng capture (jrxe's, with its per-packet notes, or tcpdump's of kernel rxe) as a "
                + "ladder diagram per connection in one HTML file that needs no network: a lane per endpoint (IP "
                + "address and QP), an arrow per packet labelled with opcode, PSN and ack request, messages bracketed, "
                + "NAKs, RNR waits, retransmissions, drops and losses in colour, time downwards with long gaps "
                + "compressed. Click an arrow for its headers field by field; filter by QP; a summary table per QP.",
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
            description = "draw at most the first N packets, so that a large capture stays quick to open "
                    + "(default: ${DEFAULT-VALUE})")
    int maxPackets;

    @Override
    public Integer call() {
        if (maxPackets < 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-packets must be at least 1");
        }
        Path target = output != null ? output : defaultOutput(capture);
        if (target.toAbsolutePath().normalize().equals(capture.toAbsolutePath().normalize())) {
            throw new UserError("the page would overwrite the capture " + capture + ": give -o FILE.html");
        }
        LoadedCapture loaded = CaptureLoad.read(capture, maxPackets);
        List<Connection> connections = ConnectionFinder.find(loaded.packets());
        LadderMarks marks = LadderMarks.of(loaded.packets().size(), connections);
        String page = LadderPage.html(capture.getFileName().toString(), loaded, connections, marks);
        try {
            Files.writeString(target, page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("cannot write " + target + ": " + FileErrors.why(e), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        out.println(target);
        if (loaded.truncated()) {
            out.println("note: only the first " + maxPackets + " packets are drawn; the capture holds more (--max-packets N)");
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

    /** The capture's path with its extension replaced by .html (added when it has none). */
    static Path defaultOutput(Path capture) {
        String name = capture.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String base = dot > 0 ? name.substring(0, dot) : name;
        return capture.resolveSibling(base + ".html");
    }
}
