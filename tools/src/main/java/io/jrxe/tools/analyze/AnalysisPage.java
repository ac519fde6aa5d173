package io.jrxe.tools.analyze;

import io.jrxe.tools.common.MarkupText;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The analysis of a whole capture as the part of `jrxe view`'s page it opens on: the text report, each finding a
 * link to the ladder around its frame, and the graphs. The graphs are images (SVG as data: URLs), so that their
 * style cannot reach the ladder's.
 */
public final class AnalysisPage {
    /** Findings kept per kind and connection side, as the text report's default. */
    private static final int KEEP = AnalyzeCommand.DEFAULT_MAX_FINDINGS;
    private static final Pattern FINDING_LINE = Pattern.compile("^(\\s+)(error|warning|note|chat) #(\\d+)(.*)$");

    private final CaptureAnalysis analysis;

    private AnalysisPage(CaptureAnalysis analysis) {
        this.analysis = analysis;
    }

    /** Reads and analyses the capture (once, as a stream). */
    public static AnalysisPage of(Path capture) {
        return new AnalysisPage(CaptureAnalysis.of(capture, KEEP));
    }

    /** Every frame of the capture, RoCEv2 or not, up to any damage. */
    public long frames() {
        return analysis.frames;
    }

    /** The frames of the findings listed, in order, each once. */
    public List<Long> findingFrames() {
        TreeSet<Long> frames = new TreeSet<>();
        for (Connection c : analysis.connections()) {
            for (int side = 0; side < 2; side++) {
                c.findings(side).kept().forEach(f -> frames.add(f.frame()));
            }
        }
        analysis.cm().findings().kept().forEach(f -> frames.add(f.frame()));
        analysis.captureFindings().kept().forEach(f -> frames.add(f.frame()));
        return new ArrayList<>(frames);
    }

    /** The section: the report as preformatted text with each finding's frame a link, then the graphs. */
    public String html() {
        StringWriter text = new StringWriter();
        TextReport.print(analysis, new PrintWriter(text));
        StringBuilder sb = new StringBuilder(text.getBuffer().length() * 2 + 256 * 1024);
        sb.append("<section id=\"analysis\"><h2>Analysis of the whole capture</h2><pre class=\"report\">");
        for (String line : text.toString().split("\n", -1)) {
            Matcher m = FINDING_LINE.matcher(line);
            if (m.matches()) {
                sb.append(MarkupText.escape(m.group(1))).append("<a class=\"finding ").append(m.group(2))
                        .append("\" href=\"#f").append(m.group(3)).append("\" data-frame=\"").append(m.group(3)).append("\">")
                        .append(m.group(2)).append(" #").append(m.group(3)).append("</a>")
                        .append(MarkupText.escape(m.group(4))).append('\n');
            } else {
                sb.append(MarkupText.escape(line)).append('\n');
            }
        }
        sb.append("</pre>\n<div class=\"graphs\">\n");
        long start = analysis.timeline().start();
        for (Connection c : analysis.connections()) {
            for (int side = 0; side < 2; side++) {
                if (!c.requesters[side].graph.isEmpty()) {
                    image(sb, TimeSequenceGraph.svg(c, side, start), "time-sequence graph of connection " + c.id
                            + ", requests of " + c.endpoint(side));
                }
            }
            image(sb, ThroughputGraph.svg(c, start, analysis.lastTime), "goodput of connection " + c.id);
        }
        return sb.append("</div></section>\n").toString();
    }

    private static void image(StringBuilder sb, String svg, String alt) {
        sb.append("<img class=\"graph\" alt=\"").append(MarkupText.escape(alt)).append("\" src=\"data:image/svg+xml;base64,")
                .append(Base64.getEncoder().encodeToString(svg.getBytes(StandardCharsets.UTF_8))).append("\">\n");
    }
}
