package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.WcStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * One row of the conformance table: an id, a name, the group it belongs to, whose rule it follows, the PSN the
 * target's receive side starts at, the steps (a packet and the answers it must get, silence being none) and the
 * checks inside an in-process target afterwards. Made with {@link #of} and the builder's steps.
 */
public record ConformanceCase(String id, String group, String name, Reference reference, String note, int startPsn,
                              List<Step> steps, List<TargetCheck> checks) {
    public static final int DEFAULT_START_PSN = 0x100000;

    public record Step(PacketRecipe packet, List<Expect> answers) {
    }

    /** The expected answers and checks, as the row prints them. */
    public String expected() {
        StringBuilder sb = new StringBuilder();
        for (Step s : steps) {
            sb.append(sb.isEmpty() ? "" : " / ").append(answers(s.answers()));
        }
        for (TargetCheck c : checks) {
            sb.append(", ").append(c.describe());
        }
        return sb.toString();
    }

    static String answers(List<Expect> answers) {
        if (answers.isEmpty()) {
            return "silence";
        }
        StringBuilder sb = new StringBuilder();
        for (Expect e : answers) {
            sb.append(sb.isEmpty() ? "" : ", ").append(e.describe());
        }
        return sb.toString();
    }

    /** Needs the target's UD QP or memory window, which only an in-process jrxe target has. */
    public boolean needsInProcessTarget() {
        return steps.stream().anyMatch(s -> s.packet().needsUd() || s.packet().needsWindow());
    }

    public static Builder of(String id, String group, String name, Reference reference) {
        return new Builder(id, group, name, reference);
    }

    public static final class Builder {
        private final String id;
        private final String group;
        private final String name;
        private final Reference reference;
        private String note = "";
        private int startPsn = DEFAULT_START_PSN;
        private final List<Step> steps = new ArrayList<>();
        private final List<TargetCheck> checks = new ArrayList<>();

        private Builder(String id, String group, String name, Reference reference) {
            this.id = id;
            this.group = group;
            this.name = name;
            this.reference = reference;
        }

        public Builder note(String text) {
            note = text;
            return this;
        }

        public Builder startPsn(int psn) {
            startPsn = psn;
            return this;
        }

        public Builder step(PacketRecipe packet, Expect... answers) {
            steps.add(new Step(packet, List.of(answers)));
            return this;
        }

        public Builder step(PacketRecipe packet, List<Expect> answers) {
            steps.add(new Step(packet, List.copyOf(answers)));
            return this;
        }

        /** The packet gets no answer within the silence timeout. */
        public Builder silent(PacketRecipe packet) {
            return step(packet);
        }

        public Builder counter(String name, long delta) {
            checks.add(new TargetCheck.Counter(name, delta));
            return this;
        }

        public Builder state(QpState state) {
            checks.add(new TargetCheck.State(state));
            return this;
        }

        public Builder memory(int at, int length, int fill) {
            checks.add(new TargetCheck.Memory(at, length, fill));
            return this;
        }

        public Builder completion(WcStatus status, int byteLen) {
            checks.add(new TargetCheck.Completion(false, status, byteLen));
            return this;
        }

        public Builder udCompletion(WcStatus status, int byteLen) {
            checks.add(new TargetCheck.Completion(true, status, byteLen));
            return this;
        }

        public Builder noCompletion() {
            checks.add(new TargetCheck.NoCompletion(false));
            return this;
        }

        public Builder noUdCompletion() {
            checks.add(new TargetCheck.NoCompletion(true));
            return this;
        }

        public ConformanceCase build() {
            return new ConformanceCase(id, group, name, reference, note, startPsn, List.copyOf(steps), List.copyOf(checks));
        }
    }
}
