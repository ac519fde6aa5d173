package io.jrxe.tools.analyze;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.dissect.StrictJson;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What `jrxe analyze --json --max-findings 0` printed for a capture, read back by a strict JSON parser. */
record AnalysisJson(int status, Map<String, Object> data) {
    /** One finding and the address of the connection side it belongs to (the sender of the traffic it is about). */
    record Found(String side, Map<String, Object> finding) {
        String kind() {
            return (String) finding.get("kind");
        }

        long number(String key) {
            return AnalysisJson.number(finding, key);
        }

        String text() {
            return (String) finding.get("text");
        }

        String cause() {
            return (String) finding.get("cause");
        }
    }

    static AnalysisJson of(Path capture) {
        InProcess r = InProcess.run("analyze", "--json", "--max-findings", "0", capture.toString());
        assertThat(r.err()).as(r.toString()).isEmpty();
        return new AnalysisJson(r.status(), StrictJson.parseObject(r.out()));
    }

    @SuppressWarnings("unchecked")
    List<Map<String, Object>> connections() {
        return (List<Map<String, Object>>) data.get("connections");
    }

    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> sides(Map<String, Object> connection) {
        return (List<Map<String, Object>>) connection.get("sides");
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> object(Map<String, Object> object, String key) {
        return (Map<String, Object>) object.get(key);
    }

    /** Every finding about a connection, in each side's frame order, sides in order. */
    @SuppressWarnings("unchecked")
    List<Found> findings() {
        List<Found> all = new ArrayList<>();
        for (Map<String, Object> c : connections()) {
            for (Map<String, Object> side : sides(c)) {
                for (Object f : (List<Object>) side.get("findings")) {
                    all.add(new Found((String) side.get("address"), (Map<String, Object>) f));
                }
            }
        }
        return all;
    }

    List<Found> findings(String kind) {
        return findings().stream().filter(f -> f.kind().equals(kind)).toList();
    }

    /** The findings of the CM or of the capture itself ({@code "cm"}, {@code "capture_findings"}). */
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> partFindings(String part) {
        return (List<Map<String, Object>>) object(data, part).get("findings");
    }

    static long number(Map<String, Object> object, String key) {
        return ((BigDecimal) object.get(key)).longValueExact();
    }
}
