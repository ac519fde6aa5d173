package io.jrxe.tools.analyze;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jrxe.wire.json.Json;
import io.jrxe.wire.opcode.Operation;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The analysis as one JSON document, written by jackson-core's generator ({@link Json}): the capture's
 * counts, each connection with its two sides (traffic, round trips, findings), the CM's findings and the
 * capture's own, totals by severity. Times are nanoseconds since the first frame; PSNs are numbers.
 */
final class JsonReport {
    private final CaptureAnalysis a;

    private JsonReport(CaptureAnalysis a) {
        this.a = a;
    }

    static String of(CaptureAnalysis a) {
        JsonReport r = new JsonReport(a);
        return Json.text(g -> {
            g.useDefaultPrettyPrinter();
            r.write(g);
        });
    }

    private void write(JsonGenerator g) throws IOException {
        Timeline t = a.timeline();
        g.writeStartObject();
        g.writeObjectFieldStart("capture");
        g.writeStringField("file", a.file().toString());
        g.writeNumberField("frames", a.frames);
        g.writeNumberField("roce", a.roce);
        g.writeNumberField("other", a.other);
        g.writeNumberField("malformed", a.malformed);
        g.writeNumberField("icrc_bad", a.icrcBad);
        g.writeNumberField("icrc_not_checked", a.icrcNotChecked);
        g.writeNumberField("copies", a.copies);
        g.writeNumberField("duration_ns", a.lastTime - a.firstTime);
        g.writeStringField("damage", a.damage);
        g.writeEndObject();
        g.writeArrayFieldStart("connections");
        for (Connection c : a.connections()) {
            connection(g, c, t);
        }
        g.writeEndArray();
        g.writeObjectFieldStart("cm");
        g.writeNumberField("messages", a.cm().messages());
        findings(g, a.cm().findings(), t);
        g.writeEndObject();
        g.writeObjectFieldStart("capture_findings");
        findings(g, a.captureFindings(), t);
        g.writeEndObject();
        totals(g);
        g.writeBooleanField("abnormal", a.abnormal());
        g.writeEndObject();
    }

    private void connection(JsonGenerator g, Connection c, Timeline t) throws IOException {
        g.writeStartObject();
        g.writeNumberField("id", c.id);
        g.writeStringField("transport", c.transport.name());
        g.writeNumberField("udp_port", c.udpPort);
        g.writeNumberField("first_frame", c.firstFrame);
        g.writeNumberField("last_frame", c.lastFrame);
        g.writeNumberField("start_ns", t.relative(c.firstTime));
        g.writeNumberField("end_ns", t.relative(c.lastTime));
        if (c.stall > 0) {
            g.writeObjectFieldStart("longest_stall");
            g.writeNumberField("ns", c.stall);
            g.writeNumberField("from_frame", c.stallFromFrame);
            g.writeNumberField("to_frame", c.stallToFrame);
            g.writeStringField("ended_by", c.stallCause);
            g.writeEndObject();
        } else {
            g.writeNullField("longest_stall");
        }
        g.writeArrayFieldStart("sides");
        for (int side = 0; side < 2; side++) {
            side(g, c, side, t);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private void side(JsonGenerator g, Connection c, int side, Timeline t) throws IOException {
        RequesterTrack r = c.requesters[side];
        g.writeStartObject();
        g.writeStringField("address", c.address[side]);
        if (c.qpn[side] == Connection.UNKNOWN_QPN) {
            g.writeNullField("qpn");
        } else {
            g.writeNumberField("qpn", c.qpn[side]);
        }
        g.writeNumberField("packets", c.packets[side]);
        g.writeNumberField("bytes", c.bytes[side]);
        g.writeNumberField("messages", r.messages);
        g.writeObjectFieldStart("messages_by_operation");
        for (Map.Entry<Operation, Long> e : r.messagesByOperation.entrySet()) {
            g.writeNumberField(e.getKey().name(), e.getValue());
        }
        g.writeEndObject();
        g.writeNumberField("data_bytes", r.dataBytes);
        g.writeNumberField("goodput_bytes_per_second", Math.round(r.goodput()));
        g.writeNumberField("new_request_packets", r.newRequestPackets);
        g.writeNumberField("resent_packets", r.resentPackets);
        g.writeNumberField("duplicate_packets", r.duplicatePackets);
        g.writeNumberField("late_packets", r.latePackets);
        g.writeNumberField("cnps", c.cnps[side]);
        g.writeNumberField("ecn_marked", c.ecnMarked[side]);
        g.writeObjectFieldStart("request_to_response_ns");
        g.writeNumberField("samples", r.roundTrips.count());
        if (r.roundTrips.count() > 0) {
            g.writeNumberField("median", r.roundTrips.median());
            g.writeNumberField("p99", r.roundTrips.p99());
            g.writeNumberField("max", r.roundTrips.max());
        }
        g.writeEndObject();
        findings(g, c.findings(side), t);
        g.writeEndObject();
    }

    private static void findings(JsonGenerator g, Findings f, Timeline t) throws IOException {
        List<Finding> kept = new ArrayList<>(f.kept());
        kept.sort(Comparator.comparingLong(Finding::frame));
        g.writeArrayFieldStart("findings");
        for (Finding x : kept) {
            g.writeStartObject();
            g.writeStringField("severity", x.severity().label());
            g.writeStringField("kind", x.kind().id());
            g.writeNumberField("frame", x.frame());
            g.writeNumberField("time_ns", t.relative(x.time()));
            if (x.psnFirst() >= 0) {
                g.writeNumberField("psn_first", x.psnFirst());
                g.writeNumberField("psn_last", x.psnLast());
            }
            g.writeNumberField("count", x.count());
            if (x.cause() != null) {
                g.writeStringField("cause", x.cause());
            }
            g.writeArrayFieldStart("related_frames");
            for (long r : x.related()) {
                g.writeNumber(r);
            }
            g.writeEndArray();
            g.writeStringField("text", x.text());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeObjectFieldStart("counts");
        for (Map.Entry<FindingKind, Long> e : f.counts().entrySet()) {
            g.writeNumberField(e.getKey().id(), e.getValue());
        }
        g.writeEndObject();
    }

    private void totals(JsonGenerator g) throws IOException {
        List<Findings> parts = new ArrayList<>(List.of(a.captureFindings(), a.cm().findings()));
        for (Connection c : a.connections()) {
            parts.add(c.findings(0));
            parts.add(c.findings(1));
        }
        g.writeObjectFieldStart("totals");
        for (Severity s : Severity.values()) {
            long n = 0;
            for (Findings f : parts) {
                n += f.count(s);
            }
            g.writeNumberField(s.label(), n);
        }
        g.writeEndObject();
    }
}
