package io.jrxe.tools.view;

import io.jrxe.tools.analyze.AnalysisPage;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.jrxe.tools.common.MarkupText.escape;
import static io.jrxe.wire.quantity.ByteSize.count;

/**
 * The page: one HTML file that needs nothing else (no network, no files beside it). Its style and
 * script are resources of this package, put inline; the data is {@link LadderJson}'s object in a
 * script element; the summary table is plain HTML so that it reads without the script.
 */
final class LadderPage {
    private static final Pattern SLOT = Pattern.compile("\\{\\{([A-Z_]+)}}");

    private LadderPage() {
    }

    /**
     * The page: the analysis first, then the ladder of {@code capture} (the whole capture, or with {@code stretches}
     * the first of them; the others are drawn when picked).
     */
    static String html(String title, LoadedCapture capture, List<Connection> connections, LadderMarks marks,
                       AnalysisPage analysis, List<LadderStretch> stretches) {
        String template = resource("ladder.html");
        String data = stretches.isEmpty() ? LadderJson.of(title, capture, connections, marks) : stretches.getFirst().json();
        Matcher m = SLOT.matcher(template);
        StringBuilder page = new StringBuilder(template.length() + data.length() + 64 * 1024);
        while (m.find()) {
            String value = switch (m.group(1)) {
                case "TITLE" -> escape(title);
                case "FACTS" -> escape((stretches.isEmpty() ? "" : "The first stretch of ladder, " + stretches.getFirst().label() + ": ")
                        + facts(capture, connections, marks));
                case "NOTES" -> notes(capture, analysis, stretches);
                case "ANALYSIS" -> analysis.html();
                case "STRETCHES" -> stretches(stretches);
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
        long started = marks.startedMessages();
        long bracketed = marks.messages.size();
        return count(capture.packets().size()) + " RoCEv2 packets in " + connections.size() + " connection"
                + (connections.size() == 1 ? "" : "s") + ", " + count(started) + " messages started (requests, each "
                + "counted once, as in the summary per QP)"
                + (bracketed == started ? "" : "; the ladders bracket " + count(bracketed)
                        + ", with the READ responses and the messages sent again");
    }

    /** How many frames the stretches hold. */
    static long framesIn(List<LadderStretch> stretches) {
        return stretches.stream().mapToLong(s -> s.to() - s.from() + 1).sum();
    }

    /** The list of stretches to pick from, and each one's data but the first's (that one is the page's data). */
    private static String stretches(List<LadderStretch> stretches) {
        if (stretches.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(256 + stretches.stream().mapToInt(s -> s.json().length() + 128).sum());
        sb.append("<nav id=\"stretches\"><h2>Ladders drawn</h2><p class=\"hint\">Pick a stretch of frames, or a finding in "
                + "the analysis, to draw its ladder.</p><ul>\n");
        for (int i = 0; i < stretches.size(); i++) {
            LadderStretch s = stretches.get(i);
            sb.append("<li><a href=\"#s").append(i).append("\" data-s=\"").append(i).append("\" data-from=\"").append(s.from())
                    .append("\" data-to=\"").append(s.to()).append("\">")
                    .append(escape(s.label())).append("</a></li>\n");
        }
        sb.append("</ul></nav>\n");
        for (int i = 1; i < stretches.size(); i++) {
            sb.append("<script type=\"application/json\" class=\"stretch\" id=\"stretch-").append(i).append("\">")
                    .append(stretches.get(i).json()).append("</script>\n");
        }
        return sb.toString();
    }

    /** What the reader should know about what is not drawn. */
    private static String notes(LoadedCapture capture, AnalysisPage analysis, List<LadderStretch> stretches) {
        List<String> notes = new ArrayList<>();
        if (!stretches.isEmpty()) {
            long drawn = framesIn(stretches);
            notes.add("The capture holds " + count(analysis.frames()) + " frames: the analysis and its graphs cover them "
                    + "all; the ladder is drawn for " + stretches.size() + " stretch" + (stretches.size() == 1 ? "" : "es")
                    + " of them (" + count(drawn) + " frames: the start, and around the findings), one at a time, "
                    + "when picked below or by a click on a finding. The other " + count(analysis.frames() - drawn)
                    + " frames are not drawn as arrows (jrxe view --around FRAME adds the stretch around a frame).");
        }
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
