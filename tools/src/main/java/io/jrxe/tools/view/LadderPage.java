package io.jrxe.tools.view;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jrxe.tools.common.MarkupText.escape;
import static io.jrxe.tools.sizing.ByteSize.count;

/**
 * The page: one HTML file that needs nothing else (no network, no files beside it). Its style and
 * script are resources of this package, put inline; the data is {@link LadderJson}'s object in a
 * script element; the summary table is plain HTML so that it reads without the script.
 */
final class LadderPage {
    private static final Pattern SLOT = Pattern.compile("\\{\\{([A-Z_]+)}}");

    private LadderPage() {
    }

    static String html(String title, LoadedCapture capture, List<Connection> connections, LadderMarks marks) {
        String template = resource("ladder.html");
        String data = LadderJson.of(title, capture, connections, marks);
        Matcher m = SLOT.matcher(template);
        StringBuilder page = new StringBuilder(template.length() + data.length() + 64 * 1024);
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "TITLE" -> escape(title);
                case "FACTS" -> escape(facts(capture, connections, marks));
                case "NOTES" -> notes(capture);
                case "SUMMARY" -> summary(QpSummary.of(connections, marks));
                case "STYLE" -> resource("ladder.css");
                case "SCRIPT" -> resource("ladder.js");
                case "DATA" -> data;
                default -> throw new IllegalStateException("ladder.html has an unknown slot " + m.group());
            };
            m.appendReplacement(page, Matcher.quoteReplacement(value));
        }
        m.appendTail(page);
        return page.toString();
    }

    private static String facts(LoadedCapture capture, List<Connection> connections, LadderMarks marks) {
        return count(capture.packets().size()) + " RoCEv2 packets in " + connections.size() + " connection"
                + (connections.size() == 1 ? "" : "s") + ", " + count(marks.messages.size()) + " messages";
    }

    /** What the reader should know about what is not drawn. */
    private static String notes(LoadedCapture capture) {
        List<String> notes = new ArrayList<>();
        if (capture.truncated()) {
            notes.add("Only the first " + count(capture.maxPackets()) + " packets are drawn; the capture holds more "
                    + "(jrxe view --max-packets N draws more).");
        }
        if (capture.damage() != null) {
            notes.add("The capture could not be read to its end: " + capture.damage() + ". What came before is drawn.");
        }
        if (capture.packets().isEmpty()) {
            notes.add("The capture holds no RoCEv2 packets (UDP port 4791): there is nothing to draw.");
        }
        if (capture.notRoce() > 0) {
            notes.add(count(capture.notRoce()) + " frame" + (capture.notRoce() == 1 ? " is" : "s are")
                    + " not RoCEv2 (ARP, other protocols) and not drawn.");
        }
        if (capture.copies() > 0) {
            notes.add(count(capture.copies()) + " frame" + (capture.copies() == 1 ? " is a copy" : "s are copies")
                    + " of a packet captured again by its receiver (jrxe records each packet on every port that sees "
                    + "it): each packet is drawn once, with its arrival time and any drop.");
        }
        StringBuilder sb = new StringBuilder();
        for (String n : notes) {
            sb.append("<p class=\"note\">").append(escape(n)).append("</p>\n");
        }
        return sb.toString();
    }

    private static String summary(List<QpSummary> rows) {
        StringBuilder sb = new StringBuilder(256 + rows.size() * 400);
        sb.append("<table class=\"summary\"><thead><tr><th>conn</th><th>QP (sender)</th><th>peer</th><th>transport</th>")
                .append("<th>packets</th><th>messages</th><th>data bytes</th><th>retransmitted</th><th>NAKs</th>")
                .append("<th>RNR NAKs</th><th>dropped or lost</th><th>goodput</th></tr></thead><tbody>\n");
        for (QpSummary r : rows) {
            sb.append("<tr data-c=\"").append(r.connection()).append("\">");
            cell(sb, "#" + (r.connection() + 1));
            cell(sb, r.endpoint().label());
            cell(sb, r.peer().label());
            cell(sb, r.transport());
            cell(sb, count(r.packets()));
            cell(sb, count(r.messages()));
            cell(sb, count(r.dataBytes()));
            cell(sb, count(r.retransmissions()));
            cell(sb, count(r.naks()));
            cell(sb, count(r.rnrNaks()));
            cell(sb, count(r.undelivered()));
            cell(sb, r.goodput());
            sb.append("</tr>\n");
        }
        return sb.append("</tbody></table>").toString();
    }

    private static void cell(StringBuilder sb, String text) {
        sb.append("<td>").append(escape(text)).append("</td>");
    }

    private static String resource(String name) {
        try (InputStream in = LadderPage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the jar lacks " + name + " (a jrxe build problem)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
