package io.jrxe.tools.conformance;

import io.jrxe.verbs.QpState;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a case checks inside an in-process jrxe target after its packets: a counter moved by so much, the QP's
 * state, the bytes of a buffer area, the completions a CQ holds. A target behind the exchange skips these.
 */
public sealed interface TargetCheck {
    String describe();

    /** Null when the check holds; else what was found. {@code before} holds the counters at the case's start. */
    String problem(TargetInspector t, Map<String, Long> before);

    record Counter(String name, long delta) implements TargetCheck {
        public String describe() {
            return name + " +" + delta;
        }

        public String problem(TargetInspector t, Map<String, Long> before) {
            long moved = t.counter(name) - before.getOrDefault(name, 0L);
            return moved == delta ? null : name + " +" + moved;
        }
    }

    record State(QpState state) implements TargetCheck {
        public String describe() {
            return "QP " + state;
        }

        public String problem(TargetInspector t, Map<String, Long> before) {
            QpState s = t.rcState();
            return s == state ? null : "QP " + s;
        }
    }

    /** {@code length} bytes at {@code at} are all {@code fill}. */
    record Memory(int at, int length, int fill) implements TargetCheck {
        public String describe() {
            return String.format("%d bytes of 0x%02x at %d", length, fill & 0xFF, at);
        }

        public String problem(TargetInspector t, Map<String, Long> before) {
            byte[] b = t.memory(at, length);
            for (int i = 0; i < length; i++) {
                if (b[i] != (byte) fill) {
                    return String.format("byte %d at %d is 0x%02x", i, at, b[i] & 0xFF);
                }
            }
            return null;
        }
    }

    /** The next completion of the RC (or UD) QP's CQ has this status (and, on success, this byte count). */
    record Completion(boolean ud, WcStatus status, int byteLen) implements TargetCheck {
        public String describe() {
            return (ud ? "UD " : "") + "completion " + status + (status == WcStatus.SUCCESS ? " " + byteLen + " bytes" : "");
        }

        /**
         * How long the completion may come after the answer that ended the case: a target may send its NAK before it
         * writes the completion of the same error, and over shared memory the NAK is here within microseconds.
         */
        static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

        public String problem(TargetInspector t, Map<String, Long> before) {
            long deadline = System.nanoTime() + WAIT_NANOS;
            WorkCompletion wc = ud ? t.pollUd() : t.pollRc();
            while (wc == null && System.nanoTime() - deadline < 0) {
                Thread.yield();
                wc = ud ? t.pollUd() : t.pollRc();
            }
            if (wc == null) {
                return "no completion";
            }
            if (wc.status() != status) {
                return "completion " + wc.status();
            }
            return status == WcStatus.SUCCESS && wc.byteLen() != byteLen ? "completion of " + wc.byteLen() + " bytes" : null;
        }
    }

    /** The CQ holds no completion. */
    record NoCompletion(boolean ud) implements TargetCheck {
        public String describe() {
            return ud ? "no UD completion" : "no completion";
        }

        public String problem(TargetInspector t, Map<String, Long> before) {
            WorkCompletion wc = ud ? t.pollUd() : t.pollRc();
            return wc == null ? null : "a completion " + wc.status();
        }
    }
}
