package io.jrxe.tools.perftest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import io.jrxe.tools.common.Gids;
import io.jrxe.wire.json.Json;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The --json output: one object with the test's settings ("test_info", named as perftest's --out_json names
 * them), both QPs' addresses and a "results" array with one object per size, on one line with a space after
 * each ':' and ',' ({@code {"MsgSize": 2, "n_iterations": 1000, ...}}). Bandwidths have six decimals, times three.
 */
final class JsonReport {
    private final PerftestSettings s;
    private final String command;
    private final List<PerftestDest> local = new ArrayList<>();
    private final List<PerftestDest> remote = new ArrayList<>();
    private final List<Json.Writing> results = new ArrayList<>();
    private String remoteVersion = "";

    JsonReport(PerftestSettings s, String command) {
        this.s = s;
        this.command = command;
    }

    void remoteVersion(String v) {
        remoteVersion = v;
    }

    void local(PerftestDest d) {
        local.add(d);
    }

    void remote(PerftestDest d) {
        remote.add(d);
    }

    void bw(BwReport r) {
        results.add(g -> {
            g.writeNumberField("MsgSize", r.size());
            g.writeNumberField("n_iterations", r.iters());
            decimal(g, "BW_peak", "%.6f", r.bwPeak());
            decimal(g, "BW_average", "%.6f", r.bwAvg());
            decimal(g, "MsgRate", "%.6f", r.msgRateAvg());
            g.writeStringField("unit", s.gbits ? "Gb/sec" : "MiB/sec");
        });
    }

    void lat(LatencyStats l) {
        results.add(g -> latency(g, l, "%.3f", "99_percentile", "99.9_percentile"));
    }

    void latDuration(long size, long iters, double avg, double tps) {
        results.add(g -> {
            g.writeNumberField("MsgSize", size);
            g.writeNumberField("n_iterations", iters);
            decimal(g, "t_avg", "%.3f", avg);
            decimal(g, "tps_average", "%.3f", tps);
        });
    }

    /** A latency row's members, the times with {@code format}'s decimals; the percentiles' names are the report's. */
    static void latency(JsonGenerator g, LatencyStats l, String format, String p99, String p999) throws IOException {
        g.writeNumberField("MsgSize", l.size());
        g.writeNumberField("n_iterations", l.iters());
        decimal(g, "t_min", format, l.min());
        decimal(g, "t_max", format, l.max());
        decimal(g, "t_typical", format, l.typical());
        decimal(g, "t_avg", format, l.avg());
        decimal(g, "t_stdev", format, l.stdev());
        decimal(g, p99, format, l.p99());
        decimal(g, p999, format, l.p999());
    }

    /** A number with a fixed count of decimals, as perftest's format strings print it. */
    static void decimal(JsonGenerator g, String name, String format, double value) throws IOException {
        g.writeFieldName(name);
        g.writeNumber(String.format(Locale.ROOT, format, value));
    }

    String render() {
        return Json.text(g -> {
            g.setPrettyPrinter(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER).withObjectEntrySpacing(Separators.Spacing.AFTER)
                    .withArrayValueSpacing(Separators.Spacing.AFTER).withObjectEmptySeparator("").withArrayEmptySeparator(""))
                    .withObjectIndenter(DefaultPrettyPrinter.NopIndenter.instance)
                    .withArrayIndenter(DefaultPrettyPrinter.NopIndenter.instance));
            g.writeStartObject();
            testInfo(g);
            g.writeArrayFieldStart("results");
            for (Json.Writing result : results) {
                g.writeStartObject();
                result.write(g);
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private void testInfo(JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("test_info");
        g.writeStringField("command", "jrxe " + command);
        g.writeStringField("test", s.testName('_'));
        g.writeStringField("side", s.client ? "client" : "server");
        g.writeStringField("Device", s.deviceName);
        g.writeNumberField("Number_of_qps", s.qps);
        g.writeStringField("Connection_type", s.connection.name());
        g.writeStringField("Using_SRQ", s.useSrq ? "ON" : "OFF");
        if (s.postList > 1) {
            g.writeNumberField("Post_List", s.postList);
        }
        g.writeNumberField("TX_depth", s.txDepth);
        if (s.verb.receives()) {
            g.writeNumberField("RX_depth", s.rxDepth);
        }
        queueAndLinkSettings(g, s);
        g.writeNumberField("Duration", s.durationSeconds);
        g.writeStringField("remote_version", remoteVersion);
        addresses(g, "local", local);
        addresses(g, "remote", remote);
        g.writeEndObject();
    }

    /**
     * The settings both reports have in the same order, as perftest's write_test_info_to_file names them: CQ
     * moderation (bandwidth tests), MTU, link, GID index, outstanding reads or inline size, and rdma_cm.
     */
    static void queueAndLinkSettings(JsonGenerator g, PerftestSettings s) throws IOException {
        if (s.bw) {
            g.writeNumberField("CQ_Moderation", s.cqMod);
        }
        g.writeNumberField("Mtu", s.mtu.bytes());
        g.writeStringField("Link_type", "Ethernet");
        g.writeNumberField("GID_index", s.gidIndex);
        if (s.verb.readLike()) {
            g.writeNumberField("Outstand_reads", s.outReads);
        } else {
            g.writeNumberField("Max_inline_data", s.inline);
        }
        g.writeStringField("rdma_cm_QPs", s.rdmaCm ? "ON" : "OFF");
    }

    private static void addresses(JsonGenerator g, String name, List<PerftestDest> dests) throws IOException {
        g.writeArrayFieldStart(name);
        for (PerftestDest d : dests) {
            g.writeStartObject();
            g.writeNumberField("lid", d.lid());
            g.writeNumberField("qpn", d.qpn());
            g.writeNumberField("psn", d.psn());
            g.writeNumberField("rkey", d.rkey() & 0xFFFF_FFFFL);
            g.writeNumberField("vaddr", d.vaddr());
            g.writeNumberField("out_reads", d.outReads());
            if (d.gid() != null) {
                g.writeStringField("gid", Gids.ntop(d.gid()));
            }
            g.writeEndObject();
        }
        g.writeEndArray();
    }
}
