package io.jrxe.tools.analyze;

import static io.jrxe.wire.quantity.ByteSize.count;

/**
 * A connection's goodput over time as SVG: for each side, the data of its new requests (resends and copies not
 * counted) per slice of time, in MB/s, one line a side. The slices are those its {@link RateSeries} ended with,
 * and the legend says how long they are.
 */
final class ThroughputGraph {
    private ThroughputGraph() {
    }

    /** The graph of {@code c}; {@code start} and {@code end} are the capture's first and last frames' times. */
    static String svg(Connection c, long start, long end) {
        double[][] xs = new double[2][];
        double[][] ys = new double[2][];
        double yMax = 0;
        for (int side = 0; side < 2; side++) {
            RateSeries r = c.requesters[side].throughput;
            long[] slices = r.slices();
            xs[side] = new double[slices.length * 2];
            ys[side] = new double[slices.length * 2];
            double origin = (r.origin() - start) / 1e9;
            double width = r.width() / 1e9;
            for (int i = 0; i < slices.length; i++) {
                // A step a slice: flat across it, so that a burst reads as the slice it filled.
                double rate = slices[i] / width / 1e6;
                xs[side][2 * i] = origin + i * width;
                xs[side][2 * i + 1] = origin + (i + 1) * width;
                ys[side][2 * i] = rate;
                ys[side][2 * i + 1] = rate;
                yMax = Math.max(yMax, rate);
            }
        }
        SvgPlot plot = new SvgPlot("Connection " + c.id + ": goodput over time", "time since the capture's first frame (s)",
                "MB/s (new request data)", 0, (end - start) / 1e9, 0, yMax * 1.05);
        for (int side = 0; side < 2; side++) {
            RateSeries r = c.requesters[side].throughput;
            plot.line("rate" + side, xs[side], ys[side], "requests of " + c.endpoint(side) + ": " + count(r.total())
                    + " B in slices of " + Timeline.duration(r.width()));
        }
        return plot.svg();
    }
}
