package io.jrxe.tools.states;

import com.fasterxml.jackson.core.JsonGenerator;
import io.jrxe.wire.json.Json;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What `jrxe states` found, kept as steps so that one run gives both the text a student reads and the JSON a worksheet
 * checks: the two can never say different things, since both are written from the same steps.
 */
final class StatesReport {
    /**
     * One step: the scene it belongs to (objects, transitions, srq), the device it happened on, a title, its values in
     * order, and the sentences that explain it.
     */
    record Step(String scene, String side, String title, Map<String, Object> values, List<String> notes) {
    }

    private final List<Step> steps = new ArrayList<>();
    private final List<String> unexpected = new ArrayList<>();

    /** A step being written: values and notes are added in the order they are to be printed. */
    static final class StepBuilder {
        private final Map<String, Object> values = new LinkedHashMap<>();
        private final List<String> notes = new ArrayList<>();

        StepBuilder value(String name, Object value) {
            values.put(name, value);
            return this;
        }

        StepBuilder note(String sentence) {
            notes.add(sentence);
            return this;
        }
    }

    StepBuilder add(String scene, String side, String title) {
        StepBuilder b = new StepBuilder();
        steps.add(new Step(scene, side, title, b.values, b.notes));
        return b;
    }

    /** Records that something did not behave as the lesson says it does (the run then exits 1). */
    void unexpected(String what) {
        unexpected.add(what);
    }

    boolean allAsExpected() {
        return unexpected.isEmpty();
    }

    List<Step> steps() {
        return steps;
    }

    void printText(PrintWriter out, String header) {
        out.println(header);
        String scene = null;
        for (Step s : steps) {
            if (!s.scene().equals(scene)) {
                scene = s.scene();
                out.printf("%n== %s ==%n", SCENE_TITLES.getOrDefault(scene, scene));
            }
            out.printf("%s%s%n", s.side() == null ? "" : "[" + s.side() + "] ", s.title());
            s.values().forEach((name, value) -> out.printf("    %s: %s%n", name, value));
            s.notes().forEach(n -> out.printf("  %s%n", n));
        }
        out.println();
        out.println(unexpected.isEmpty() ? "Every step behaved as described."
                : unexpected.size() + " step(s) did not behave as described: " + String.join("; ", unexpected));
    }

    void printJson(PrintWriter out, Map<String, Object> setup) {
        out.println(Json.text(g -> {
            g.writeStartObject();
            g.writeStringField("command", "states");
            g.writeObjectFieldStart("setup");
            writeValues(g, setup);
            g.writeEndObject();
            g.writeArrayFieldStart("steps");
            for (Step s : steps) {
                g.writeStartObject();
                g.writeStringField("scene", s.scene());
                if (s.side() != null) {
                    g.writeStringField("side", s.side());
                }
                g.writeStringField("title", s.title());
                g.writeObjectFieldStart("values");
                writeValues(g, s.values());
                g.writeEndObject();
                g.writeArrayFieldStart("notes");
                for (String n : s.notes()) {
                    g.writeString(n);
                }
                g.writeEndArray();
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeBooleanField("asExpected", unexpected.isEmpty());
            g.writeArrayFieldStart("unexpected");
            for (String u : unexpected) {
                g.writeString(u);
            }
            g.writeEndArray();
            g.writeEndObject();
        }));
    }

    /** Numbers stay numbers (a checker compares them), everything else is its text. */
    private static void writeValues(JsonGenerator g, Map<String, Object> values) throws IOException {
        for (Map.Entry<String, Object> e : values.entrySet()) {
            if (e.getValue() instanceof Long l) {
                g.writeNumberField(e.getKey(), l);
            } else if (e.getValue() instanceof Integer i) {
                g.writeNumberField(e.getKey(), i);
            } else if (e.getValue() instanceof Boolean b) {
                g.writeBooleanField(e.getKey(), b);
            } else {
                g.writeStringField(e.getKey(), String.valueOf(e.getValue()));
            }
        }
    }

    private static final Map<String, String> SCENE_TITLES = Map.of(
            "objects", "1. The objects: what each verbs call creates, and its identifiers",
            "transitions", "2. The QP state machine: RESET -> INIT -> RTR -> RTS, what each step requires",
            "srq", "3. Receive buffers for many connections: a receive queue per QP or one shared (SRQ)");
}
