package io.jrxe.tools.analyze;

import io.jrxe.wire.opcode.Operation;
import io.jrxe.wire.opcode.Transport;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.jrxe.wire.quantity.ByteSize.count;

/**
 * The analysis as text: what the capture holds, then per connection each side's traffic (messages, data,
 * goodput, request-to-response times), the longest stall and the findings in frame order, one a line as
 * Wireshark's expert info lists them; then the CM's and the capture's own findings, and a summary line.
 */
final class TextReport {
    private final CaptureAnalysis a;
    private final PrintWriter out;
    private final Timeline timeline;

    private TextReport(CaptureAnalysis a, PrintWriter out) {
        this.a = a;
        this.out = out;
        this.timeline = a.timeline();
    }

    static void print(CaptureAnalysis a, PrintWriter out) {
        new TextReport(a, out).print();
    }

    private void print() {
        out.println("capture: " + a.file() + ": " + count(a.frames) + " frames (" + count(a.roce) + " RoCEv2, "
                + count(a.other) + " other, " + count(a.malformed) + " malformed), "
                + Timeline.seconds(a.lastTime - a.firstTime) + " s; ICRC bad " + count(a.icrcBad)
                + (a.icrcNotChecked > 0 ? ", not checked " + count(a.icrcNotChecked) + " (frames cut by the snapshot length)" : ""));
        if (a.copies > 0) {
            out.println("  " + count(a.copies) + " frames are another interface's record of a packet already counted"
                    + " (an arrival, a drop or a network's copy): jrxe writes a packet on every port that sees it");
        }
        for (Connection c : a.connections()) {
            connection(c);
        }
        Findings cm = a.cm().findings();
        if (a.cm().messages() > 0) {
            out.println();
            out.println("CM: " + count(a.cm().messages()) + " messages on QP1");
            findings(cm, "  ");
        }
        if (!a.captureFindings().kept().isEmpty()) {
            out.println();
            out.println("packets that belong to no connection (bad ICRC, malformed):");
            findings(a.captureFindings(), "  ");
        }
        if (a.damage != null) {
            out.println("capture damaged: " + a.damage + "; the frames before it were analysed");
        }
        summary();
        out.flush();
    }

    private void connection(Connection c) {
        out.println();
        out.println(c.transport + " connection " + c.id + ": " + c.endpoint(0) + " <-> " + c.endpoint(1)
                + ", UDP source port " + c.udpPort + ", #" + c.firstFrame + "..#" + c.lastFrame + " ("
                + timeline.at(c.firstTime) + " to " + timeline.at(c.lastTime) + ")");
        if (c.stall > 0) {
            out.println("  longest stall: " + Timeline.duration(c.stall) + " with requests unanswered, after #"
                    + c.stallFromFrame + " (" + timeline.at(c.stallFromTime) + "), ended by #" + c.stallToFrame + ": "
                    + c.stallCause);
        }
        for (int side = 0; side < 2; side++) {
            if (c.packets[side] > 0 || c.requesters[side].started()) {
                out.println("  " + c.endpoint(side) + ": " + traffic(c, side));
                findings(c.findings(side), "    ");
            }
        }
    }

    private String traffic(Connection c, int side) {
        RequesterTrack t = c.requesters[side];
        StringBuilder sb = new StringBuilder(200);
        sb.append(count(c.packets[side])).append(" packets sent");
        if (t.messages > 0) {
            sb.append("; as requester: ").append(count(t.messages)).append(t.messages == 1 ? " message (" : " messages (");
            boolean first = true;
            for (Map.Entry<Operation, Long> e : t.messagesByOperation.entrySet()) {
                sb.append(first ? "" : ", ").append(e.getKey().name()).append(' ').append(count(e.getValue()));
                first = false;
            }
            sb.append("), ").append(count(t.dataBytes)).append(" B of data, goodput ").append(rate(t.goodput()));
            if (c.transport != Transport.UD) {
                sb.append("; ").append(count(t.newRequestPackets)).append(" new request packets, ")
                        .append(count(t.resentPackets)).append(" resent, ").append(count(t.duplicatePackets))
                        .append(" copies, ").append(count(t.latePackets)).append(" late");
            }
        }
        if (t.roundTrips.count() > 0) {
            sb.append("; request to response: median ").append(Timeline.duration(t.roundTrips.median())).append(", p99 ")
                    .append(Timeline.duration(t.roundTrips.p99())).append(" (").append(count(t.roundTrips.count()))
                    .append(t.roundTrips.count() == 1 ? " sample)" : " samples)");
        }
        return sb.toString();
    }

    private void findings(Findings f, String indent) {
        List<Finding> kept = new ArrayList<>(f.kept());
        kept.sort(Comparator.comparingLong(Finding::frame));
        for (Finding finding : kept) {
            out.println(String.format(Locale.ROOT, "%s%-7s #%-7d %12s  %s", indent, finding.severity().label(),
                    finding.frame(), timeline.at(finding.time()), finding.text()));
        }
        for (FindingKind kind : FindingKind.values()) {
            long n = f.leftOut(kind);
            if (n > 0) {
                out.println(indent + "... and " + count(n) + " more " + kind.plural() + " (--max-findings 0 lists them all)");
            }
        }
    }

    private void summary() {
        long[] bySeverity = new long[Severity.values().length];
        List<Findings> parts = new ArrayList<>();
        parts.add(a.captureFindings());
        parts.add(a.cm().findings());
        for (Connection c : a.connections()) {
            parts.add(c.findings(0));
            parts.add(c.findings(1));
        }
        for (Findings f : parts) {
            for (Severity s : Severity.values()) {
                bySeverity[s.ordinal()] += f.count(s);
            }
        }
        out.println();
        StringBuilder sb = new StringBuilder("summary: ").append(count(a.connections().size()))
                .append(a.connections().size() == 1 ? " connection" : " connections");
        for (Severity s : Severity.values()) {
            sb.append(", ").append(count(bySeverity[s.ordinal()])).append(' ').append(s.label())
                    .append(bySeverity[s.ordinal()] == 1 || s == Severity.CHAT ? "" : "s");
        }
        sb.append(a.abnormal() ? ": something is wrong" : ": nothing abnormal");
        out.println(sb);
    }

    /** Bytes per second in decimal units, as link speeds are given: "12.3 MB/s". */
    static String rate(double bytesPerSecond) {
        String[] units = {"B/s", "kB/s", "MB/s", "GB/s"};
        int u = 0;
        double v = bytesPerSecond;
        while (u < units.length - 1 && v >= 1000) {
            v /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[u]);
    }
}
