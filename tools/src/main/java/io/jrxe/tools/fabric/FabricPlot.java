package io.jrxe.tools.fabric;

import io.jrxe.tools.regmr.PlotFormat;
import io.jrxe.wire.quantity.BitRate;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The run over time, drawn by XChart: each flow's delivered rate (Gbit/s, left axis) and the bottleneck queue's
 * depth (KiB, right axis, black) at each snapshot.
 */
final class FabricPlot {
    private static final int WIDTH = 1000;
    private static final int HEIGHT = 600;

    private FabricPlot() {
    }

    static void write(FabricResult r, Path file, PlotFormat format) throws IOException {
        // XChart draws with AWT; without a display, AWT must be told it is headless before its first use.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        FabricScenario s = r.scenario();
        XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT)
                .title(s.topology() + ", " + s.senders() + " senders, " + BitRate.text(s.linkBits()) + ", cc " + s.cc()
                        + ", PFC " + (s.pfc() == null ? "off" : "on") + ", seed " + s.seed())
                .xAxisTitle("virtual time (ms)").yAxisTitle("rate delivered (Gbit/s)").build();
        Styler styler = chart.getStyler();
        styler.setChartBackgroundColor(Color.WHITE);
        styler.setPlotBackgroundColor(Color.WHITE);
        styler.setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setXAxisDecimalPattern("#0.0");
        chart.setYAxisGroupTitle(1, "bottleneck queue (KiB)");
        FabricResult.Series series = r.series();
        for (int f = 0; f < series.flowNames().size(); f++) {
            XYSeries line = chart.addSeries(series.flowNames().get(f), series.millis(), series.flowGbits().get(f));
            line.setMarker(SeriesMarkers.NONE);
        }
        XYSeries depth = chart.addSeries("queue " + r.bottleneck(), series.millis(), series.depthKib());
        depth.setYAxisGroup(1);
        depth.setMarker(SeriesMarkers.NONE);
        depth.setLineColor(Color.BLACK);
        try (OutputStream out = Files.newOutputStream(file)) {
            switch (format) {
                case PNG -> BitmapEncoder.saveBitmap(chart, out, BitmapEncoder.BitmapFormat.PNG);
                case SVG -> VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
            }
        }
    }
}
