package io.jrxe.tools.learn;

import java.util.Map;

/** Lesson 8: the SRQ; the answer is the receive-buffer memory `states --srq-scene` saves with one SRQ. */
final class SharedReceiveQueue implements Lesson {
    @Override
    public String file() {
        return "08-srq.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        StatesSteps steps = new StatesSteps(tools.states("--srq-scene"));
        Map<String, Object> difference = steps.values("jrxe0", "The difference");
        Map<String, Object> perQp = steps.values("jrxe0", "One receive queue per QP");
        Map<String, Object> srq = steps.values("jrxe0", "One shared receive queue");
        String saved = String.valueOf(difference.get("saved"));
        return new Solution(Answer.number(Long.parseLong(saved), saved), Map.of(
                "per_qp", String.valueOf(perQp.get("buffer bytes registered")), "per_qp_formula", String.valueOf(perQp.get("formula")),
                "srq", String.valueOf(srq.get("buffer bytes registered")), "srq_formula", String.valueOf(srq.get("formula"))));
    }
}
