package io.jrxe.tools.learn;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * Lesson 3: RESET -> INIT -> RTR -> RTS. The answer is the attribute `jrxe states` leaves out of INIT -> RTR on
 * purpose, read from the refusal ibv_modify_qp gave.
 */
final class QpStateMachine implements Lesson {
    private static final Pattern MISSING = Pattern.compile("missing (\\w+)");

    @Override
    public String file() {
        return "03-qp-state-machine.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        StatesSteps steps = new StatesSteps(tools.states());
        String result = (String) steps.values("jrxe0", "INIT -> RTR without").get("result");
        String missing = LessonTools.found(result, MISSING, "states (its INIT -> RTR refusal)").group(1);
        Answer answer = missing.equals("AV") ? Answer.words("AV", "ah_attr", "address vector", "IBV_QP_AV")
                : Answer.words(missing, "IBV_QP_" + missing);
        String required = (String) steps.values("jrxe0", "INIT -> RTR with every").get("required");
        return new Solution(answer, Map.of("refusal", result, "required", required));
    }
}
