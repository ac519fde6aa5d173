package io.jrxe.it.interop;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The marking queue of {@link GuestEcnMarkingTest} over time, one line per run: RED's backlog (bytes, left axis) and
 * the packets it dropped so far (right axis, dashed), from the first sample with a packet queued. Drawn by XChart.
 */
final class EcnQueuePlot {
    private static final Color[] COLORS = {new Color(0xC0, 0x39, 0x2B), new Color(0x21, 0x61, 0x8C)};

    private EcnQueuePlot() {
    }

    /** One run's samples: seconds since its first busy sample, backlog in bytes, drops since that sample. */
    record Series(String name, double[] seconds, double[] backlogBytes, double[] drops) {
        static Series of(String name, List<GuestBottleneck.QueueSample> busy) {
            int n = busy.size();
            double[] t = new double[n];
            double[] b = new double[n];
            double[] d = new double[n];
            for (int i = 0; i < n; i++) {
                GuestBottleneck.QueueSample s = busy.get(i);
                t[i] = s.seconds() - busy.getFirst().seconds();
                b[i] = s.backlogBytes();
                d[i] = s.dropped() - busy.getFirst().dropped();
            }
            return new Series(name, t, b, d);
        }
    }

    static void write(Path file, int megabits, int limitBytes, List<Series> runs) throws IOException {
        // XChart draws with AWT; without a display, AWT must be told it is headless before its first use.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        XYChart chart = new XYChartBuilder().width(1000).height(560)
                .title("RED on a " + megabits + " Mbit/s veth in the lab guest (buffer " + limitBytes + " bytes): jrxe write-bw -q 2")
                .xAxisTitle("seconds of the transfer (guest clock)").yAxisTitle("backlog (bytes)").build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.setYAxisGroupTitle(1, "packets dropped so far");
        styler.setYAxisGroupPosition(1, Styler.YAxisPosition.Right);
        for (int i = 0; i < runs.size(); i++) {
            Series r = runs.get(i);
            if (r.seconds().length == 0) {
                continue; // XChart refuses an empty series; the test's assertions say why the run had none
            }
            Color color = COLORS[i % COLORS.length];
            XYSeries backlog = chart.addSeries("backlog, --cc " + r.name(), r.seconds(), r.backlogBytes());
            backlog.setMarker(SeriesMarkers.NONE);
            backlog.setLineColor(color);
            XYSeries drops = chart.addSeries("drops, --cc " + r.name(), r.seconds(), r.drops());
            drops.setYAxisGroup(1);
            drops.setMarker(SeriesMarkers.NONE);
            drops.setLineColor(color);
            drops.setLineStyle(new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
    }
}
