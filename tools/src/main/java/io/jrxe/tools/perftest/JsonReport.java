package io.jrxe.tools.perftest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The --json output: one object with the test's settings ("test_info", named as perftest's --out_json names
 * them), both QPs' addresses and a "results" array with one object per size.
 */
final class JsonReport {
    private final PerftestSettings s;
    private final String command;
    private final List<String> local = new ArrayList<>();
    private final List<String> remote = new ArrayList<>();
    private final List<String> results = new ArrayList<>();
    private String remoteVersion = "";

    JsonReport(PerftestSettings s, String command) {
        this.s = s;
        this.command = command;
    }

    void remoteVersion(String v) {
        remoteVersion = v;
    }

    void local(PerftestDest d) {
        local.add(dest(d));
    }

    void remote(PerftestDest d) {
        remote.add(dest(d));
    }

    void bw(BwReport r) {
        results.add(String.format(Locale.ROOT, "{\"MsgSize\": %d, \"n_iterations\": %d, \"BW_peak\": %.6f, \"BW_average\": %.6f, "
                + "\"MsgRate\": %.6f, \"unit\": \"%s\"}", r.size(), r.iters(), r.bwPeak(), r.bwAvg(), r.msgRateAvg(),
                s.gbits ? "Gb/sec" : "MiB/sec"));
    }

    void lat(LatencyStats l) {
        results.add(String.format(Locale.ROOT, "{\"MsgSize\": %d, \"n_iterations\": %d, \"t_min\": %.3f, \"t_max\": %.3f, "
                + "\"t_typical\": %.3f, \"t_avg\": %.3f, \"t_stdev\": %.3f, \"99_percentile\": %.3f, \"99.9_percentile\": %.3f}",
                l.size(), l.iters(), l.min(), l.max(), l.typical(), l.avg(), l.stdev(), l.p99(), l.p999()));
    }

    void latDuration(long size, long iters, double avg, double tps) {
        results.add(String.format(Locale.ROOT, "{\"MsgSize\": %d, \"n_iterations\": %d, \"t_avg\": %.3f, \"tps_average\": %.3f}",
                size, iters, avg, tps));
    }

    private static String dest(PerftestDest d) {
        return String.format("{\"lid\": %d, \"qpn\": %d, \"psn\": %d, \"rkey\": %d, \"vaddr\": %d, \"out_reads\": %d%s}", d.lid(),
                d.qpn(), d.psn(), d.rkey() & 0xFFFF_FFFFL, d.vaddr(), d.outReads(),
                d.gid() == null ? "" : ", \"gid\": \"" + io.jrxe.tools.common.Gids.ntop(d.gid()) + "\"");
    }

    String render() {
        StringBuilder sb = new StringBuilder();
        sb.append("{\"test_info\": {");
        sb.append("\"command\": \"jrxe ").append(command).append("\", ");
        sb.append("\"test\": \"").append(s.testName('_')).append("\", ");
        sb.append("\"side\": \"").append(s.client ? "client" : "server").append("\", ");
        sb.append("\"Device\": \"").append(s.deviceName).append("\", ");
        sb.append("\"Number_of_qps\": ").append(s.qps).append(", ");
        sb.append("\"Connection_type\": \"").append(s.connection).append("\", ");
        sb.append("\"Using_SRQ\": \"").append(s.useSrq ? "ON" : "OFF").append("\", ");
        if (s.postList > 1) {
            sb.append("\"Post_List\": ").append(s.postList).append(", ");
        }
        sb.append("\"TX_depth\": ").append(s.txDepth).append(", ");
        if (s.verb.receives()) {
            sb.append("\"RX_depth\": ").append(s.rxDepth).append(", ");
        }
        if (s.bw) {
            sb.append("\"CQ_Moderation\": ").append(s.cqMod).append(", ");
        }
        sb.append("\"Mtu\": ").append(s.mtu.bytes()).append(", ");
        sb.append("\"Link_type\": \"Ethernet\", ");
        sb.append("\"GID_index\": ").append(s.gidIndex).append(", ");
        if (s.verb.readLike()) {
            sb.append("\"Outstand_reads\": ").append(s.outReads).append(", ");
        } else {
            sb.append("\"Max_inline_data\": ").append(s.inline).append(", ");
        }
        sb.append("\"rdma_cm_QPs\": \"").append(s.rdmaCm ? "ON" : "OFF").append("\", ");
        sb.append("\"Duration\": ").append(s.durationSeconds).append(", ");
        sb.append("\"remote_version\": \"").append(remoteVersion.replace("\"", "")).append("\", ");
        sb.append("\"local\": [").append(String.join(", ", local)).append("], ");
        sb.append("\"remote\": [").append(String.join(", ", remote)).append("]}, ");
        sb.append("\"results\": [").append(String.join(", ", results)).append("]}");
        return sb.toString();
    }
}
