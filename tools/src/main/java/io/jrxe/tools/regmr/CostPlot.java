package io.jrxe.tools.regmr;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The log-log plot of the measurements, drawn by XChart: buffer size across, median time up, one colour per
 * device, registration as a solid line and deregistration dashed in the same colour (with --odp, the first touch
 * dotted). On log-log axes a cost
 * proportional to the pages is a straight line of slope one, and a fixed per-call cost is a flat one.
 */
final class CostPlot {
    static final int WIDTH = 900;
    static final int HEIGHT = 600;
    /** Colours that stay apart for the colour-blind (the Okabe-Ito palette's first ones). */
    private static final Color[] COLOURS = {new Color(0, 114, 178), new Color(213, 94, 0), new Color(0, 158, 115),
        new Color(204, 121, 167), new Color(230, 159, 0), new Color(86, 180, 233)};

    private CostPlot() {
    }

    static void write(List<DeviceCosts> devices, int repeat, Path file, PlotFormat format) throws IOException {
        // XChart draws with AWT; without a display, AWT must be told it is headless before its first use.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        XYChart chart = chart(devices, repeat);
        try (OutputStream out = Files.newOutputStream(file)) {
            switch (format) {
                case PNG -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
                case SVG -> VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            }
        }
    }

    private static XYChart chart(List<DeviceCosts> devices, int repeat) {
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Memory registration cost (median of the last round of " + repeat + ")")
                .xAxisTitle("buffer size (KiB)").yAxisTitle("time (µs)").build();
        Styler styler = chart.getStyler();
        chart.getStyler().setXAxisLogarithmic(true).setYAxisLogarithmic(true)
                .setXAxisDecimalPattern("#,###").setYAxisDecimalPattern("#,###.#");
        styler.setLegendPosition(Styler.LegendPosition.InsideNW);
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setMarkerSize(7);
        for (int i = 0; i < devices.size(); i++) {
            DeviceCosts device = devices.get(i);
            Color colour = COLOURS[i % COLOURS.length];
            double[] kib = device.rows().stream().mapToDouble(r -> r.bytes() / 1024.0).toArray();
            double[] reg = device.rows().stream().mapToDouble(r -> r.registration().medianMicros()).toArray();
            double[] dereg = device.rows().stream().mapToDouble(r -> r.deregistration().medianMicros()).toArray();
            style(chart.addSeries(device.device() + " reg_mr", kib, positive(reg)), colour, SeriesLines.SOLID);
            style(chart.addSeries(device.device() + " dereg_mr", kib, positive(dereg)), colour, SeriesLines.DASH_DASH);
            if (!device.touches().isEmpty()) {
                double[] touchKib = device.touches().stream().mapToDouble(t -> t.bytes() / 1024.0).toArray();
                double[] touch = device.touches().stream().mapToDouble(t -> t.time().medianMicros()).toArray();
                style(chart.addSeries(device.device() + " first touch", touchKib, positive(touch)), colour, SeriesLines.DOT_DOT);
            }
        }
        return chart;
    }

    private static void style(XYSeries series, Color colour, BasicStroke line) {
        series.setLineColor(colour);
        series.setMarkerColor(colour);
        series.setLineStyle(line);
        series.setMarker(line == SeriesLines.SOLID ? SeriesMarkers.CIRCLE
                : line == SeriesLines.DASH_DASH ? SeriesMarkers.SQUARE : SeriesMarkers.DIAMOND);
    }

    /** A log axis has no place for 0: a call faster than the clock's step is drawn at 0.01 µs. */
    private static double[] positive(double[] micros) {
        double[] out = micros.clone();
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.max(out[i], 0.01);
        }
        return out;
    }
}
