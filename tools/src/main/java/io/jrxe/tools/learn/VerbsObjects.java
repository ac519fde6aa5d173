package io.jrxe.tools.learn;

import java.util.Map;

/** Lesson 2: context, PD, MR with its lkey and rkey, CQ, QP; the answer is jrxe1's rkey as `jrxe states` prints it. */
final class VerbsObjects implements Lesson {
    @Override
    public String file() {
        return "02-verbs-objects.md";
    }

    @Override
    public Solution solve(LessonTools tools) {
        StatesSteps steps = new StatesSteps(tools.states());
        Map<String, Object> mr = steps.values("jrxe1", "ibv_reg_mr");
        String rkey = (String) mr.get("rkey");
        return new Solution(Answer.number(Long.decode(rkey), rkey), Map.of(
                "index", String.valueOf(mr.get("key index")), "variant", String.valueOf(mr.get("key variant")),
                "qpn", (String) steps.values("jrxe1", "ibv_create_qp").get("qpn")));
    }
}
