package io.jrxe.tools.decode;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.dissect.PacketDetail;
import io.jrxe.wire.dissect.PacketJson;
import io.jrxe.wire.dissect.PacketSummary;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** `jrxe decode FILE`: dissects every packet of a pcap or pcapng capture and checks each RoCEv2 ICRC. */
@Command(name = "decode",
        description = "Dissects a pcap or pcapng capture (from jrxe, tcpdump, Wireshark, ...): one summary line per "
                + "packet, then one line 'packets=N roce=N icrc_ok=N icrc_bad=N other=N'. RoCEv2 packets are those sent "
                + "to UDP port 4791; every one has its ICRC checked.",
        exitCodeListHeading = "Exit status:%n",
        exitCodeList = {
            "0:the capture was read",
            "1:bad options; with --verify-icrc, some RoCEv2 packet's ICRC is wrong or could not be checked",
            "2:the capture could not be read (missing, not a capture, truncated, no libpcap)",
        })
public final class DecodeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "FILE", description = "the capture file (pcap or pcapng)")
    Path file;

    @Option(names = "--verify-icrc", description = "exit 1 when any RoCEv2 packet's ICRC is wrong (they are marked BAD)")
    boolean verifyIcrc;

    @Option(names = "--json", description = "one JSON object per packet on stdout; the totals line goes to stderr")
    boolean json;

    @Option(names = "-V", description = "the detail view: every field of every header")
    boolean detail;

    @Option(names = "--layout", description = "the layout view: each header's offset, length and bytes in hex, the "
            + "AETH syndrome bit by bit, the ICRC as Wireshark shows it and as the CRC-32 value")
    boolean layout;

    // Declared here, not by mixinStandardHelpOptions: picocli leaves that mixin out altogether when a command has
    // an option of its names, and -V is tshark's detail view here, not --version.
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "show this help and exit")
    boolean help;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        DecodeTotals totals = new DecodeTotals();
        if (json && layout) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--layout and --json: one view at a time");
        }
        Dissector dissector = new Dissector();
        PacketLayout layoutView = new PacketLayout();
        try (CaptureReader reader = new CaptureReader(file)) {
            CapturedFrame frame;
            while ((frame = reader.next()) != null) {
                DissectedPacket packet = dissector.dissect(frame.frameNumber(), frame.timestampNanos(), frame.data(),
                        frame.linkType());
                totals.count(packet);
                out.println(json ? PacketJson.of(packet) : layout ? layoutView.of(frame, packet)
                        : detail ? PacketDetail.of(packet) : PacketSummary.of(packet));
            }
        }
        (json ? err : out).println(totals.line());
        out.flush();
        return verifyIcrc && totals.icrcBad() > 0 ? 1 : 0;
    }
}
