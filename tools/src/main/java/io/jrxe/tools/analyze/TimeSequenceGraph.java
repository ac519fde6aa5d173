package io.jrxe.tools.analyze;

import java.util.List;

import static io.jrxe.wire.quantity.ByteSize.count;

/**
 * One requester's time-sequence graph as SVG (tcptrace's and Wireshark's Stevens graph, for RoCE): each request
 * PSN against the time it was sent, the PSN acknowledged so far as a line, and in colour what went wrong: resends,
 * NAKs, RNR NAKs with the wait each caused, PSNs the capture skipped, copies and late packets. A series of more
 * points than the graph has room for keeps, per slice of time, its lowest and highest point, and its legend line
 * says so.
 */
final class TimeSequenceGraph {
    private TimeSequenceGraph() {
    }

    /** The graph of {@code side}'s requests in {@code c}; {@code start} is the capture's first frame's time. */
    static String svg(Connection c, int side, long start) {
        TimeSequence g = c.requesters[side].graph;
        long[][][] all = {g.sent.points(), g.acked.points(), g.resent.points(), g.naks.points(), g.rnrNaks.points(),
            g.gaps.points(), g.duplicates.points(), g.reordered.points()};
        double xMax = 0;
        double yMax = 0;
        double yMin = Double.MAX_VALUE;
        for (long[][] s : all) {
            for (int i = 0; i < s[0].length; i++) {
                xMax = Math.max(xMax, seconds(s[0][i], start));
                yMax = Math.max(yMax, s[1][i]);
                yMin = Math.min(yMin, s[1][i]);
            }
        }
        for (TimeSequence.Wait w : g.waits) {
            xMax = Math.max(xMax, seconds(w.to(), start));
        }
        double xMin = g.sent.isEmpty() ? 0 : seconds(all[0][0][0], start);
        SvgPlot plot = new SvgPlot("Connection " + c.id + ": requests of " + c.endpoint(side) + " to " + c.endpoint(1 - side),
                "time since the capture's first frame (s)", "PSN, counted from the first one seen",
                xMin, xMax, yMin == Double.MAX_VALUE ? 0 : yMin, yMax);
        plot.marks("sent", "dot", x(g.sent, start), y(g.sent), words("request sent", g.sent));
        double[][] acked = steps(x(g.acked, start), y(g.acked), xMax);
        plot.line("acked", acked[0], acked[1], words("acknowledged through", g.acked));
        plot.marks("gap", "square", x(g.gaps, start), y(g.gaps), words("PSN the capture skipped (lost before the capture point)", g.gaps));
        plot.marks("resent", "dot", x(g.resent, start), y(g.resent), words("resent", g.resent));
        plot.marks("nak", "tick", x(g.naks, start), y(g.naks), words("sequence NAK (or one the READ response implied)", g.naks));
        plot.marks("rnr", "triangle", x(g.rnrNaks, start), y(g.rnrNaks), words("RNR NAK", g.rnrNaks));
        List<TimeSequence.Wait> waits = g.waits;
        double[] from = new double[waits.size()];
        double[] to = new double[waits.size()];
        double[] at = new double[waits.size()];
        for (int i = 0; i < waits.size(); i++) {
            from[i] = seconds(waits.get(i).from(), start);
            to[i] = seconds(waits.get(i).to(), start);
            at[i] = waits.get(i).psn();
        }
        plot.spans("wait", from, to, at, "RNR wait: from the RNR NAK to the resend (" + count(waits.size())
                + (g.waitsLeftOut > 0 ? " drawn, the " + count(g.waitsLeftOut) + " after them not" : "") + ")");
        plot.marks("dup", "dot", x(g.duplicates, start), y(g.duplicates), words("copy of a packet already sent", g.duplicates));
        plot.marks("late", "dot", x(g.reordered, start), y(g.reordered), words("late (reordered on the way)", g.reordered));
        return plot.svg();
    }

    /** The legend's words: what the series is, how many points, and how many are drawn when they were merged. */
    private static String words(String what, PointSeries s) {
        int drawn = s.points()[0].length;
        return what + " (" + count(s.added()) + (drawn < s.added() ? "; " + count(drawn)
                + " drawn: each slice of time keeps its lowest and highest" : "") + ")";
    }

    /** A line that holds each value until the next one comes (and the last to {@code end}): what was acknowledged stays so. */
    private static double[][] steps(double[] xs, double[] ys, double end) {
        if (xs.length == 0) {
            return new double[][] {xs, ys};
        }
        double[] sx = new double[2 * xs.length];
        double[] sy = new double[2 * xs.length];
        for (int i = 0; i < xs.length; i++) {
            sx[2 * i] = xs[i];
            sy[2 * i] = ys[i];
            sx[2 * i + 1] = i + 1 < xs.length ? xs[i + 1] : end;
            sy[2 * i + 1] = ys[i];
        }
        return new double[][] {sx, sy};
    }

    private static double[] x(PointSeries s, long start) {
        long[] t = s.points()[0];
        double[] x = new double[t.length];
        for (int i = 0; i < t.length; i++) {
            x[i] = seconds(t[i], start);
        }
        return x;
    }

    private static double[] y(PointSeries s) {
        long[] v = s.points()[1];
        double[] y = new double[v.length];
        for (int i = 0; i < v.length; i++) {
            y[i] = v[i];
        }
        return y;
    }

    private static double seconds(long time, long start) {
        return (time - start) / 1e9;
    }
}
