package io.jrxe.tools.compare;

import java.util.List;
import java.util.Map;

/**
 * What one setup did in one step: the completions on A and on B, what memory holds afterwards, the QPs' states,
 * the counters that moved, the packets (filled in after the run, from the setup's capture; null when the setup
 * cannot see them) and, for a timed step, its speed. {@code error} is a verb that failed (the step stopped there).
 */
record Observation(Step step, String title, List<Completion> onA, List<Completion> onB, String memory, String states,
                   Map<String, Long> counters, int qpA, int qpB, String speed, String error, List<String> packets) {

    Observation withPackets(List<String> seen) {
        return new Observation(step, title, onA, onB, memory, states, counters, qpA, qpB, speed, error, seen);
    }
}
