package io.jrxe.tools.perftest;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** perftest's lines, as its format strings print them with glibc. */
class PerftestFormatTest {
    static final byte[] GID = HexFormat.of().parseHex("00000000000000000000ffff7f000102");

    private static String address(Verb verb) {
        StringWriter w = new StringWriter();
        PerftestFormat.address(new PrintWriter(w, true), "local",
                new PerftestDest(0, 0x80, 0x14, 0x99fbf1, 0x1dc, 0x7f17a84f7000L, GID, 0), verb);
        return w.toString();
    }

    @Test
    void addressLinesPerVerb() {
        String gid = " GID: 00:00:00:00:00:00:00:00:00:00:255:255:127:00:01:02" + System.lineSeparator();
        assertThat(address(Verb.WRITE)).isEqualTo(" local address: LID 0000 QPN 0x0014 PSN 0x99fbf1 RKey 0x0001dc VAddr 0x007f17a84f7000"
                + System.lineSeparator() + gid);
        assertThat(address(Verb.READ)).isEqualTo(" local address: LID 0000 QPN 0x0014 PSN 0x99fbf1 OUT 0x80 RKey 0x0001dc VAddr "
                + "0x007f17a84f7000" + System.lineSeparator() + gid);
        assertThat(address(Verb.SEND)).isEqualTo(" local address: LID 0000 QPN 0x0014 PSN 0x99fbf1" + System.lineSeparator() + gid);
        assertThat(address(Verb.ATOMIC)).isEqualTo(address(Verb.SEND));
    }

    /** glibc's %#06x pads to six characters with the "0x": a PSN below 0x100000 has fewer than six digits. */
    @Test
    void smallNumbersKeepGlibcsWidths() {
        StringWriter w = new StringWriter();
        PerftestFormat.address(new PrintWriter(w, true), "remote", new PerftestDest(0, 1, 0x14, 0x30220, 0, 0, null, 0), Verb.WRITE);
        assertThat(w.toString().strip()).isEqualTo("remote address: LID 0000 QPN 0x0014 PSN 0x30220 RKey 00000000 VAddr 0000000000000000"); // as glibc prints them
    }

    @Test
    void resultRows() {
        assertThat(PerftestFormat.bwRow(new BwReport(65536, 5000, 98.114, 65.456, 0.001047), false))
                .isEqualTo(" 65536      5000             98.11              65.46  \t\t     0.001047");
        assertThat(PerftestFormat.bwRow(new BwReport(2, 5000, 0.01, 0.05, 2.5), true))
                .isEqualTo(" 2          5000           0.010000            0.050000            2.500000");
        LatencyStats l = new LatencyStats(2, 1000, 120.951, 11813.76, 221.82, 555.37, 808.39, 4162.93, 11813.76, new double[0]);
        assertThat(PerftestFormat.latRow(l))
                .isEqualTo(" 2       1000          120.95         11813.76      221.82   \t       555.37      \t808.39 \t\t4162.93 \t\t11813.76");
        assertThat(PerftestFormat.BW_HEADER_MB.strip().split("\\s{2,}")).containsExactly("#bytes", "#iterations", "BW peak[MiB/sec]",
                "BW average[MiB/sec]", "MsgRate[Mpps]");
        assertThat(PerftestFormat.LAT_HEADER.strip().split("\\s{2,}")).containsExactly("#bytes #iterations", "t_min[usec]", "t_max[usec]",
                "t_typical[usec]", "t_avg[usec]", "t_stdev[usec]", "99% percentile[usec]", "99.9% percentile[usec]");
    }

    @Test
    void latencyStatisticsAsPerftestComputesThem() {
        long[] posted = new long[7];
        long t = 0;
        long[] gaps = {10_000, 2_000, 4_000, 6_000, 8_000, 100_000};
        for (int i = 0; i < gaps.length; i++) {
            posted[i] = t;
            t += gaps[i];
        }
        posted[6] = t;
        LatencyStats s = LatencyStats.of(2, posted, 7, 2);
        // Round trips 10, 2, 4, 6, 8, 100 us, halved and sorted: 1 2 3 4 5 50; the two largest are dropped.
        assertThat(s.min()).isEqualTo(1.0);
        assertThat(s.max()).as("the first one dropped").isEqualTo(5.0);
        assertThat(s.typical()).isEqualTo(2.5);
        assertThat(s.avg()).isEqualTo(2.5);
        assertThat(s.p99()).isEqualTo(5.0);
        assertThat(s.stdev()).isCloseTo(Math.sqrt(1.25), org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void theQpSpreadLineNamesTheSlowestMedianAndFastest() {
        assertThat(PerftestFormat.qpSpread(new double[] {5.0, 9.5, 10.0, 10.5, 12.0}, false))
                .isEqualTo(" per QP (5 QPs, MiB/sec): slowest 5.00, median 10.00, fastest 12.00; slowest/median 0.50");
        assertThat(PerftestFormat.qpSpread(new double[] {1.0}, true))
                .isEqualTo(" per QP (1 QPs, Gb/sec): slowest 1.00, median 1.00, fastest 1.00; slowest/median 1.00");
        assertThat(PerftestFormat.qpSpread(new double[] {0.0052341, 0.006, 0.0071}, false))
                .isEqualTo(" per QP (3 QPs, MiB/sec): slowest 0.005234, median 0.006000, fastest 0.007100; slowest/median 0.87");
    }
}
