package io.jrxe.tools.perftest;

import io.jrxe.tools.common.CFormat;

import java.io.PrintWriter;
import java.util.Locale;

/** perftest's printed lines: the rule, the column headers and the result rows, space for space. */
final class PerftestFormat {
    static final String RESULT_LINE = "---------------------------------------------------------------------------------------";
    static final String BW_HEADER_MB = " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]";
    static final String BW_HEADER_GB = " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    static final String LAT_HEADER = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    t_stdev[usec]   "
            + "99% percentile[usec]   99.9% percentile[usec] ";
    static final String LAT_DURATION_HEADER = " #bytes        #iterations       t_avg[usec]    tps average";

    private PerftestFormat() {
    }

    /** The block perftest prints before connecting: the test, the device and the settings that matter. */
    static void header(PrintWriter out, PerftestSettings s) {
        out.println(RESULT_LINE);
        out.println("                    " + s.testName(' '));
        if (s.events) {
            out.println(" Test with events. Using " + s.deviceName + "_comp0");
        }
        out.printf(" Dual-port       : %s\t\tDevice         : %s%n", "OFF", s.deviceName);
        out.printf(" Number of qps   : %d\t\tTransport type : %s%n", s.qps, "IB");
        out.printf(" Connection type : %s\t\tUsing SRQ      : %s%n", s.connection, s.useSrq ? "ON" : "OFF");
        out.printf(" PCIe relax order: %s\t\tLock-free      : %s%n", "OFF", "OFF");
        out.printf(" ibv_wr* API     : %s\t\tUsing Enhanced Reorder      : %s%n", "OFF", "OFF");
        if (s.client || !s.bw || s.duplex) {
            out.printf(" TX depth        : %d%n", s.txDepth);
        }
        if (s.postList > 1) {
            out.printf(" Post List       : %d%n", s.postList);
        }
        if (s.verb.receives() && (!s.client || !s.bw || s.duplex)) {
            out.printf(" RX depth        : %d%n", s.rxDepth);
        }
        if (s.bw) {
            out.printf(" CQ Moderation   : %d%n", s.cqMod);
            out.printf(" CQE Poll Batch  : Dynamic%n");
        }
        out.printf(" Mtu             : %d[B]%n", s.mtu.bytes());
        out.printf(" Link type       : Ethernet%n");
        out.printf(" GID index       : %d%n", s.gidIndex);
        if (s.verb.readLike()) {
            out.printf(" Outstand reads  : %d%n", s.outReads);
        } else {
            out.printf(" Max inline data : %d[B]%n", s.inline);
        }
        out.printf(" rdma_cm QPs\t : %s%n", s.rdmaCm ? "ON" : "OFF");
        out.printf(" Data ex. method : %s%n", s.rdmaCmExchange ? "rdma_cm" : "Ethernet");
        if (s.rdmaCm && !s.client) {
            out.println(RESULT_LINE);
            out.println(" Waiting for client rdma_cm QP to connect");
            out.println(" Please run the same command with the IB/RoCE interface IP");
        }
        out.println(RESULT_LINE);
    }

    static String bwRow(BwReport r, boolean gbits) {
        if (r.bwAvg() < 0.1 && gbits) {
            return String.format(Locale.ROOT, " %-7d    %d           %-7.6f            %-7.6f            %-7.6f", r.size(), r.iters(),
                    r.bwPeak(), r.bwAvg(), r.msgRateAvg());
        }
        return String.format(Locale.ROOT, " %-7d    %-10d       %-7.2f            %-7.2f\t\t     %-7.6f", r.size(), r.iters(),
                r.bwPeak(), r.bwAvg(), r.msgRateAvg());
    }

    /** --qp-spread's line: the slowest, median and fastest QP of {@code sorted} (slowest first). */
    static String qpSpread(double[] sorted, boolean gbits) {
        double slowest = sorted[0];
        double median = sorted[sorted.length / 2];
        double fastest = sorted[sorted.length - 1];
        return String.format(Locale.ROOT, " per QP (%d QPs, %s): slowest %s, median %s, fastest %s; slowest/median %.2f",
                sorted.length, gbits ? "Gb/sec" : "MiB/sec", rate(slowest), rate(median), rate(fastest),
                median > 0 ? slowest / median : 0);
    }

    /** Two decimals, or four significant digits below 1 (a thousand QPs may each move a few KiB/s). */
    private static String rate(double v) {
        return v >= 1 || v == 0 ? String.format(Locale.ROOT, "%.2f", v) : String.format(Locale.ROOT, "%.4g", v);
    }

    static String latRow(LatencyStats s) {
        return String.format(Locale.ROOT, " %-7d %d          %-7.2f        %-7.2f      %-7.2f  \t       %-7.2f     \t%-7.2f\t\t%-7.2f \t\t%-7.2f",
                s.size(), s.iters(), s.min(), s.max(), s.typical(), s.avg(), s.stdev(), s.p99(), s.p999());
    }

    static String latDurationRow(long size, long iters, double avg, double tps) {
        return String.format(Locale.ROOT, " %-7d       %d            %-7.2f        %-7.2f", size, iters, avg, tps);
    }

    /**
     * The QP line perftest prints for each side (ctx_print_pingpong_data): reads add the outstanding reads,
     * reads and writes the R_Key and address; then the GID, its bytes in decimal.
     */
    static void address(PrintWriter out, String side, PerftestDest d, Verb verb) {
        StringBuilder sb = new StringBuilder();
        sb.append(' ').append(side).append(" address: LID ").append(CFormat.altHex(d.lid(), 4)).append(" QPN ")
                .append(CFormat.altHex(d.qpn(), 6)).append(" PSN ").append(CFormat.altHex(d.psn(), 6));
        if (verb == Verb.READ) {
            sb.append(" OUT ").append(CFormat.altHex(d.outReads(), 4));
        }
        if (verb == Verb.READ || verb == Verb.WRITE) {
            sb.append(" RKey ").append(CFormat.altHex(d.rkey() & 0xFFFF_FFFFL, 8)).append(" VAddr ").append(CFormat.altHex(d.vaddr(), 16));
        }
        out.println(sb);
        if (d.gid() != null) {
            StringBuilder g = new StringBuilder(" GID: ");
            byte[] gid = d.gid();
            for (int i = 0; i < 16; i++) {
                g.append(i == 0 ? "" : ":").append(String.format("%02d", gid[i] & 0xFF));
            }
            out.println(g);
        }
    }

    /** C's %g. */
    static String g(double v) {
        String t = String.format(Locale.ROOT, "%.6g", v);
        if (t.contains("e")) {
            return t;
        }
        return t.contains(".") ? t.replaceAll("0+$", "").replaceAll("\\.$", "") : t;
    }
}
