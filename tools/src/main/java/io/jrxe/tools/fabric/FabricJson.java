package io.jrxe.tools.fabric;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jrxe.wire.json.Json;

import java.io.IOException;

/** The JSON report of a `jrxe fabric` run: one object, the same values as the text (rates in bit/s, times in ns). */
final class FabricJson {
    private FabricJson() {
    }

    static String text(FabricResult r) {
        return Json.text(g -> {
            FabricScenario s = r.scenario();
            g.writeStartObject();
            g.writeStringField("command", "fabric");
            g.writeObjectFieldStart("scenario");
            g.writeStringField("topology", s.topology());
            g.writeNumberField("senders", s.senders());
            g.writeNumberField("link_bits_per_second", s.linkBits());
            g.writeNumberField("delay_ns", s.delayNanos());
            g.writeNumberField("buffer_bytes", s.bufferBytes());
            g.writeNumberField("kmin_bytes", s.marking().kminBytes());
            g.writeNumberField("kmax_bytes", s.marking().kmaxBytes());
            g.writeNumberField("pmax", s.marking().pmax());
            g.writeBooleanField("pfc", s.pfc() != null);
            if (s.pfc() != null) {
                g.writeNumberField("xoff_bytes", s.pfc().xoffBytes());
                g.writeNumberField("xon_bytes", s.pfc().xonBytes());
            }
            g.writeStringField("cc", s.cc());
            g.writeBooleanField("ecn", s.ecn());
            g.writeNumberField("duration_ns", s.durationNanos());
            g.writeNumberField("bytes_per_flow", s.bytesPerFlow());
            g.writeNumberField("message_bytes", s.messageBytes());
            g.writeNumberField("depth", s.depth());
            g.writeNumberField("mtu", s.mtu());
            g.writeNumberField("seed", s.seed());
            g.writeEndObject();
            g.writeStringField("fingerprint", String.format("%016x", r.fingerprint()));
            g.writeNumberField("simulated_ns", r.simulatedNanos());
            g.writeNumberField("second_half_from_ns", r.halfNanos());
            g.writeNumberField("jain_second_half", r.jain());
            g.writeNumberField("bottleneck_utilisation_second_half", r.utilisation());
            g.writeStringField("bottleneck", r.bottleneck());
            g.writeNumberField("drops", r.drops());
            g.writeNumberField("marks", r.marks());
            g.writeNumberField("pauses_sent", r.pausesSent());
            g.writeNumberField("cnps_sent", r.cnpsSent());
            g.writeNumberField("cnps_received", r.cnpsReceived());
            g.writeNumberField("retries", r.retries());
            g.writeArrayFieldStart("flows");
            for (FabricResult.Flow f : r.flows()) {
                flow(g, f);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("queues");
            for (FabricResult.Queue q : r.queues()) {
                g.writeStartObject();
                g.writeStringField("name", q.name());
                g.writeNumberField("max_depth_bytes", q.maxDepthBytes());
                g.writeNumberField("mean_depth_bytes", q.meanDepthBytes());
                g.writeNumberField("marks", q.marks());
                g.writeNumberField("drops", q.drops());
                g.writeNumberField("pauses_received", q.pausesReceived());
                g.writeNumberField("paused_ns", q.pausedNanos());
                g.writeNumberField("utilisation", q.utilisation());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
        });
    }

    private static void flow(JsonGenerator g, FabricResult.Flow f) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", f.name());
        g.writeBooleanField("victim", f.victim());
        g.writeNumberField("written_bytes", f.completedBytes());
        g.writeNumberField("goodput_bits_per_second", f.goodputBits());
        g.writeNumberField("second_half_goodput_bits_per_second", f.secondHalfGoodputBits());
        g.writeNumberField("completion_ns", f.completionNanos());
        g.writeNumberField("delivered_roce_bytes", f.deliveredBytes());
        g.writeNumberField("sent_packets", f.sentPackets());
        g.writeNumberField("retries", f.retries());
        g.writeNumberField("cnps_received", f.cnpsReceived());
        g.writeNumberField("rate_cuts", f.rateCuts());
        g.writeNumberField("paused_ns", f.pausedNanos());
        if (f.failure() != null) {
            g.writeStringField("failure", f.failure());
        }
        g.writeEndObject();
    }
}
