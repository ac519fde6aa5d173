package io.jrxe.tools.trace;

import io.jrxe.wire.dissect.PacketJson;
import io.jrxe.wire.json.Json;

import java.util.Map;

/** One trip event as one line of JSON: its number, time, NIC, kind, course step, sentence and values. */
final class TripJson {
    private TripJson() {
    }

    static String of(int seq, TripEvent e) {
        return Json.text(g -> {
            g.writeStartObject();
            g.writeNumberField("seq", seq);
            g.writeNumberField("time_ns", e.timeNanos());
            g.writeStringField("nic", e.nic());
            g.writeStringField("event", e.stage().json);
            g.writeStringField("stage", e.stage().label);
            g.writeNumberField("course_step", e.stage().courseStep);
            for (Map.Entry<String, Object> f : e.fields().entrySet()) {
                g.writeFieldName(f.getKey());
                switch (f.getValue()) {
                    case Integer n -> g.writeNumber(n);
                    case Long n -> g.writeNumber(n);
                    case Number n -> g.writeNumber(n.doubleValue());
                    case Boolean b -> g.writeBoolean(b);
                    case null, default -> g.writeString(String.valueOf(f.getValue()));
                }
            }
            if (e.packet() != null) {
                g.writeFieldName("packet");
                PacketJson.write(g, e.packet());
            }
            g.writeStringField("text", e.text());
            g.writeEndObject();
        });
    }
}
