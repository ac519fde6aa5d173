package io.jrxe.tools.perftest;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import io.jrxe.tools.BadOption;
import io.jrxe.tools.UserError;
import io.jrxe.wire.json.Json;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.jrxe.tools.perftest.JsonReport.decimal;
import static io.jrxe.tools.perftest.JsonReport.latency;
import static io.jrxe.tools.perftest.JsonReport.queueAndLinkSettings;

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
        write(g -> {
            g.writeNumberField("MsgSize", r.size());
            g.writeNumberField("n_iterations", r.iters());
            decimal(g, "BW_peak", f, r.bwPeak());
            decimal(g, "BW_average", f, r.bwAvg());
            decimal(g, "MsgRate", "%.6f", r.msgRateAvg());
        });
    }

    void lat(LatencyStats l) {
        write(g -> latency(g, l, "%.2f", "percentile_99", "percentile_99.9"));
    }

    void latDuration(long size, long iters, double avg, double tps) {
        write(g -> {
            g.writeNumberField("MsgSize", size);
            g.writeNumberField("n_iterations", iters);
            decimal(g, "t_avg", "%.2f", avg);
            decimal(g, "tps_average", "%.2f", tps);
        });
    }

    /**
     * The file: perftest's layout, a '{' or '}' alone on its line and one "key": value a line, not indented, the
     * whole ended by a newline. jackson's printer with an indent of nothing and a newline at each line's end writes it.
     */
    private void write(Json.Writing results) {
        if (file == null) {
            return;
        }
        String text = Json.text(g -> {
            g.setPrettyPrinter(new DefaultPrettyPrinter(Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER).withObjectEntrySpacing(Separators.Spacing.NONE))
                    .withObjectIndenter(new DefaultIndenter("", "\n")));
            g.writeStartObject();
            testInfo(g);
            g.writeObjectFieldStart("results");
            results.write(g);
            g.writeEndObject();
            g.writeEndObject();
            g.writeRaw('\n');
        });
        try {
            Files.writeString(file, text, StandardCharsets.US_ASCII);
        } catch (IOException e) {
            throw new UserError("writing " + file + " (--out_json) failed: " + e.getMessage(), e);
        }
    }

    /** write_test_info_to_file: the header's settings. */
    private void testInfo(JsonGenerator g) throws IOException {
        g.writeObjectFieldStart("test_info");
        g.writeStringField("test", s.testName('_'));
        if (s.events) {
            g.writeStringField("Test with events", "Using_" + s.deviceName + "_comp0");
        }
        g.writeStringField("Dual_port", "OFF");
        g.writeStringField("Device", s.deviceName);
        g.writeNumberField("Number_of_qps", s.qps);
        g.writeStringField("Transport_type", "IB");
        g.writeStringField("Connection_type", s.connection.name());
        g.writeStringField("Using_SRQ", s.useSrq ? "ON" : "OFF");
        g.writeStringField("PCIe_relax_order", "OFF");
        g.writeStringField("ibv_wr_API", "OFF");
        if (s.client || s.duplex) {
            g.writeNumberField("TX_depth", s.txDepth);
        }
        if (s.postList > 1) {
            g.writeNumberField("Post_List", s.postList);
        }
        if (s.verb == Verb.SEND && (!s.client || s.duplex)) {
            g.writeNumberField("RX_depth", s.rxDepth);
        }
        queueAndLinkSettings(g, s);
        g.writeStringField("Use_ROCm_memory", "OFF");
        g.writeStringField("Data_ex_method", s.rdmaCmExchange ? "rdma_cm" : "Ethernet");
        g.writeEndObject();
    }
}
