package io.jrxe.tools.trace;

import io.jrxe.wire.dissect.JsonText;

import java.util.Map;

/** One trip event as one line of JSON: its number, time, NIC, kind, course step, sentence and values. */
final class TripJson {
    private TripJson() {
    }

    static String of(int seq, TripEvent e) {
        StringBuilder sb = new StringBuilder(256).append('{');
        member(sb, "seq", seq);
        member(sb, "time_ns", e.timeNanos());
        member(sb, "nic", e.nic());
        member(sb, "event", e.stage().json);
        member(sb, "stage", e.stage().label);
        member(sb, "course_step", e.stage().courseStep);
        for (Map.Entry<String, Object> f : e.fields().entrySet()) {
            member(sb, f.getKey(), f.getValue());
        }
        if (e.packetJson() != null) {
            sb.append(",\"packet\":").append(e.packetJson());
        }
        member(sb, "text", e.text());
        return sb.append('}').toString();
    }

    private static void member(StringBuilder sb, String name, Object value) {
        if (sb.length() > 1) {
            sb.append(',');
        }
        JsonText.quote(sb, name);
        sb.append(':');
        if (value instanceof Number || value instanceof Boolean) {
            sb.append(value);
        } else {
            JsonText.quote(sb, String.valueOf(value));
        }
    }
}
