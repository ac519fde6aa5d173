package io.jrxe.tools.perftest;

/** One bandwidth result line's numbers (perftest's struct bw_report_data, the fields it sends). */
public record BwReport(long size, long iters, double bwPeak, double bwAvg, double msgRateAvg) {
}
