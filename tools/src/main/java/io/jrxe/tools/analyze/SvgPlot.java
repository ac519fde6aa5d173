package io.jrxe.tools.analyze;

import io.jrxe.tools.common.MarkupText;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A two-axis plot written as one standalone SVG document (its style inline, no script, no font files), so that a
 * browser, an image viewer or a page that embeds it shows the same picture. Axes get round ticks; each series
 * gets a line of the legend, with the words that say what it stands for (how many points, what was merged).
 */
final class SvgPlot {
    static final int WIDTH = 960;
    static final int HEIGHT = 480;
    private static final int LEFT = 84;
    private static final int RIGHT = 16;
    private static final int TOP = 40;
    private static final int BOTTOM = 52;
    private static final int LEGEND_LINE = 16;

    private static final String STYLE = """
            text{font:12px sans-serif;fill:#222}.title{font-weight:bold;font-size:14px}.axis{stroke:#444;fill:none}
            .grid{stroke:#ddd}.sent{fill:#444}.acked{stroke:#1a9e3a;fill:none;stroke-width:1.5}.resent{fill:#d62728}
            .nak{stroke:#ff7f0e;stroke-width:2}.rnr{fill:#9467bd}.wait{stroke:#9467bd;stroke-width:3;stroke-opacity:.6}
            .gap{fill:none;stroke:#d62728;stroke-width:1.5}.dup{fill:#1f77b4}.late{fill:#17becf}
            .rate0{stroke:#1f77b4;fill:none;stroke-width:1.5}.rate1{stroke:#ff7f0e;fill:none;stroke-width:1.5}
            .legend text{font-size:11px}""";

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final double xMin;
    private final double xMax;
    private final double yMin;
    private final double yMax;
    private final StringBuilder body = new StringBuilder(16 * 1024);
    private final List<String[]> legend = new ArrayList<>();

    /** A plot of x in [xMin, xMax] and y in [yMin, yMax]; an empty range is widened so that its points still show. */
    SvgPlot(String title, String xLabel, String yLabel, double xMin, double xMax, double yMin, double yMax) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.xMin = xMin;
        this.xMax = xMax > xMin ? xMax : xMin + 1e-6;
        this.yMin = yMin;
        this.yMax = yMax > yMin ? yMax : yMin + 1;
    }

    private double x(double v) {
        return LEFT + (v - xMin) / (xMax - xMin) * (WIDTH - LEFT - RIGHT);
    }

    private double y(double v) {
        return HEIGHT - BOTTOM - (v - yMin) / (yMax - yMin) * (HEIGHT - TOP - BOTTOM);
    }

    /** A line through the points, in order. */
    void line(String cssClass, double[] xs, double[] ys, String words) {
        if (xs.length == 0) {
            return;
        }
        body.append("<polyline class=\"").append(cssClass).append("\" points=\"");
        for (int i = 0; i < xs.length; i++) {
            body.append(f(x(xs[i]))).append(',').append(f(y(ys[i]))).append(' ');
        }
        body.append("\"/>\n");
        legend.add(new String[] {cssClass, "line", words});
    }

    /** One mark per point: a {@code dot}, a {@code square} (hollow), a {@code triangle} or a {@code tick} (vertical). */
    void marks(String cssClass, String shape, double[] xs, double[] ys, String words) {
        if (xs.length == 0) {
            return;
        }
        for (int i = 0; i < xs.length; i++) {
            mark(body, cssClass, shape, x(xs[i]), y(ys[i]));
        }
        legend.add(new String[] {cssClass, shape, words});
    }

    /** Horizontal bars from {@code from[i]} to {@code to[i]} at {@code ys[i]}. */
    void spans(String cssClass, double[] from, double[] to, double[] ys, String words) {
        if (from.length == 0) {
            return;
        }
        for (int i = 0; i < from.length; i++) {
            body.append("<line class=\"").append(cssClass).append("\" x1=\"").append(f(x(from[i]))).append("\" x2=\"")
                    .append(f(x(to[i]))).append("\" y1=\"").append(f(y(ys[i]))).append("\" y2=\"").append(f(y(ys[i])))
                    .append("\"/>\n");
        }
        legend.add(new String[] {cssClass, "span", words});
    }

    private static void mark(StringBuilder sb, String cssClass, String shape, double px, double py) {
        switch (shape) {
            case "dot" -> sb.append("<circle class=\"").append(cssClass).append("\" cx=\"").append(f(px)).append("\" cy=\"")
                    .append(f(py)).append("\" r=\"1.6\"/>\n");
            case "square" -> sb.append("<rect class=\"").append(cssClass).append("\" x=\"").append(f(px - 3)).append("\" y=\"")
                    .append(f(py - 3)).append("\" width=\"6\" height=\"6\"/>\n");
            case "triangle" -> sb.append("<path class=\"").append(cssClass).append("\" d=\"M").append(f(px)).append(',')
                    .append(f(py - 4)).append("l4,7h-8z\"/>\n");
            case "tick" -> sb.append("<line class=\"").append(cssClass).append("\" x1=\"").append(f(px)).append("\" x2=\"")
                    .append(f(px)).append("\" y1=\"").append(f(py - 6)).append("\" y2=\"").append(f(py + 6)).append("\"/>\n");
            case "line", "span" -> sb.append("<line class=\"").append(cssClass).append("\" x1=\"").append(f(px - 8))
                    .append("\" x2=\"").append(f(px + 8)).append("\" y1=\"").append(f(py)).append("\" y2=\"").append(f(py))
                    .append("\"/>\n");
            default -> throw new IllegalArgumentException("no mark shape " + shape);
        }
    }

    /** The whole document. */
    String svg() {
        int legendHeight = legend.size() * LEGEND_LINE;
        int height = HEIGHT + legendHeight;
        StringBuilder sb = new StringBuilder(body.length() + 4096);
        sb.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(height).append("\">\n<style>")
                .append(STYLE).append("</style>\n<rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>\n")
                .append("<text class=\"title\" x=\"").append(LEFT).append("\" y=\"22\">").append(MarkupText.escape(title))
                .append("</text>\n");
        axes(sb);
        sb.append(body);
        sb.append("<g class=\"legend\">\n");
        for (int i = 0; i < legend.size(); i++) {
            String[] l = legend.get(i);
            double ly = HEIGHT + i * LEGEND_LINE + 4;
            mark(sb, l[0], l[1], LEFT + 8, ly - 4);
            sb.append("<text x=\"").append(LEFT + 24).append("\" y=\"").append(f(ly)).append("\">")
                    .append(MarkupText.escape(l[2])).append("</text>\n");
        }
        return sb.append("</g>\n</svg>\n").toString();
    }

    private void axes(StringBuilder sb) {
        double bottom = HEIGHT - BOTTOM;
        sb.append("<path class=\"axis\" d=\"M").append(LEFT).append(',').append(TOP).append("V").append(f(bottom))
                .append("H").append(WIDTH - RIGHT).append("\"/>\n");
        double step = step(xMax - xMin);
        for (double v = Math.ceil(xMin / step) * step; v <= xMax + step * 1e-9; v += step) {
            double px = x(v);
            sb.append("<line class=\"grid\" x1=\"").append(f(px)).append("\" x2=\"").append(f(px)).append("\" y1=\"")
                    .append(TOP).append("\" y2=\"").append(f(bottom)).append("\"/>\n<text x=\"").append(f(px))
                    .append("\" y=\"").append(f(bottom + 16)).append("\" text-anchor=\"middle\">").append(tick(v, step))
                    .append("</text>\n");
        }
        step = step(yMax - yMin);
        for (double v = Math.ceil(yMin / step) * step; v <= yMax + step * 1e-9; v += step) {
            double py = y(v);
            sb.append("<line class=\"grid\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
                    .append(f(py)).append("\" y2=\"").append(f(py)).append("\"/>\n<text x=\"").append(LEFT - 6)
                    .append("\" y=\"").append(f(py + 4)).append("\" text-anchor=\"end\">").append(tick(v, step))
                    .append("</text>\n");
        }
        sb.append("<text x=\"").append((LEFT + WIDTH - RIGHT) / 2).append("\" y=\"").append(HEIGHT - 14)
                .append("\" text-anchor=\"middle\">").append(MarkupText.escape(xLabel)).append("</text>\n")
                .append("<text transform=\"translate(16,").append((TOP + HEIGHT - BOTTOM) / 2)
                .append(") rotate(-90)\" text-anchor=\"middle\">").append(MarkupText.escape(yLabel)).append("</text>\n");
    }

    /** A round step (1, 2 or 5 times a power of ten) that cuts {@code range} into about six. */
    static double step(double range) {
        double raw = range / 6;
        double power = Math.pow(10, Math.floor(Math.log10(raw)));
        double m = raw / power;
        return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
    }

    private static String tick(double v, double step) {
        int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        return String.format(Locale.ROOT, "%,." + decimals + "f", Math.abs(v) < step * 1e-9 ? 0.0 : v);
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }
}
