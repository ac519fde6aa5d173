package io.jrxe.tools.perftest;

import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * --out_json: the report in the file perftest writes, field for field as perftest 25.01 and later write it
 * (write_test_info_to_file and the report writers; perftest 4.5 wrote the same fields without the quotes). Like
 * perftest it rewrites the file at every result row, so with -a it holds the last size's. jrxe's settings stand
 * where perftest's would: no PCIe relaxed ordering, no ibv_wr API, no ROCm memory.
 */
final class PerftestJsonFile {
    private final PerftestSettings s;
    private final Path file;

    private PerftestJsonFile(PerftestSettings s, Path file) {
        this.s = s;
        this.file = file;
    }

    /** The writer of {@code s.outJsonFile}, after checking it can be written; a writer that writes nothing without it. */
    static PerftestJsonFile open(PerftestSettings s) {
        if (s.outJsonFile == null) {
            return new PerftestJsonFile(s, null);
        }
        Path file = Path.of(s.outJsonFile);
        try {
            Files.writeString(file, "", StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            throw new BadOption("--out_json_file " + s.outJsonFile + ": cannot be written (" + e.getMessage() + ")", e);
        }
        return new PerftestJsonFile(s, file);
    }

    void bw(BwReport r) {
        // perftest's REPORT_FMT_EXT_JSON: more digits for a small bandwidth in Gb/s.
        String f = r.bwAvg() < 0.1 && s.gbits ? "%.6f" : "%.2f";
        write(String.format(Locale.ROOT, "\"MsgSize\": %d,\n\"n_iterations\": %d,\n\"BW_peak\": " + f + ",\n\"BW_average\": " + f
                + ",\n\"MsgRate\": %.6f", r.size(), r.iters(), r.bwPeak(), r.bwAvg(), r.msgRateAvg()));
    }

    void lat(LatencyStats l) {
        write(String.format(Locale.ROOT, "\"MsgSize\": %d,\n\"n_iterations\": %d,\n\"t_min\": %.2f,\n\"t_max\": %.2f,\n"
                + "\"t_typical\": %.2f,\n\"t_avg\": %.2f,\n\"t_stdev\": %.2f,\n\"percentile_99\": %.2f,\n\"percentile_99.9\": %.2f",
                l.size(), l.iters(), l.min(), l.max(), l.typical(), l.avg(), l.stdev(), l.p99(), l.p999()));
    }

    void latDuration(long size, long iters, double avg, double tps) {
        write(String.format(Locale.ROOT, "\"MsgSize\": %d,\n\"n_iterations\": %d,\n\"t_avg\": %.2f,\n\"tps_average\": %.2f",
                size, iters, avg, tps));
    }

    private void write(String results) {
        if (file == null) {
            return;
        }
        String text = "{\n" + testInfo() + "\"results\": {\n" + results + "\n}\n}\n";
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UserError("writing " + file + " (--out_json) failed: " + e.getMessage(), e);
        }
    }

    /** write_test_info_to_file: the header's settings. */
    String testInfo() {
        StringBuilder t = new StringBuilder("\"test_info\": {\n");
        t.append("\"test\": \"").append(s.testName('_')).append("\",\n");
        if (s.events) {
            t.append("\"Test with events\": \"Using_").append(s.deviceName).append("_comp0\",\n");
        }
        t.append("\"Dual_port\": \"OFF\",\n\"Device\": \"").append(s.deviceName).append("\",\n");
        t.append("\"Number_of_qps\": ").append(s.qps).append(",\n\"Transport_type\": \"IB\",\n");
        t.append("\"Connection_type\": \"").append(s.connection).append("\",\n\"Using_SRQ\": \"").append(s.useSrq ? "ON" : "OFF")
                .append("\",\n");
        t.append("\"PCIe_relax_order\": \"OFF\",\n\"ibv_wr_API\": \"OFF\",\n");
        if (s.client || s.duplex) {
            t.append("\"TX_depth\": ").append(s.txDepth).append(",\n");
        }
        if (s.postList > 1) {
            t.append("\"Post_List\": ").append(s.postList).append(",\n");
        }
        if (s.verb == Verb.SEND && (!s.client || s.duplex)) {
            t.append("\"RX_depth\": ").append(s.rxDepth).append(",\n");
        }
        if (s.bw) {
            t.append("\"CQ_Moderation\": ").append(s.cqMod).append(",\n");
        }
        t.append("\"Mtu\": ").append(s.mtu.bytes()).append(",\n\"Link_type\": \"Ethernet\",\n");
        t.append("\"GID_index\": ").append(s.gidIndex).append(",\n");
        if (s.verb.readLike()) {
            t.append("\"Outstand_reads\": ").append(s.outReads).append(",\n");
        } else {
            t.append("\"Max_inline_data\": ").append(s.inline).append(",\n");
        }
        t.append("\"rdma_cm_QPs\": \"").append(s.rdmaCm ? "ON" : "OFF").append("\",\n\"Use_ROCm_memory\": \"OFF\",\n\"Data_ex_method\": \"")
                .append(s.rdmaCmExchange ? "rdma_cm" : "Ethernet").append("\"\n},\n");
        return t.toString();
    }
}
