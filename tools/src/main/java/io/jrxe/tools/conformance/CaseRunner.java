package io.jrxe.tools.conformance;

import io.jrxe.wire.port.PeerAddress;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one case: a fresh target QP, each step's packet sent and its answers collected (until as many came as
 * expected, or for silence the whole silence timeout), matched, and the checks inside an in-process target.
 */
final class CaseRunner {
    /** How long an expected answer may take: far beyond any live target's, short enough to report a lost one. */
    static final int ANSWER_WAIT_MILLIS = 3000;

    private final Target target;
    private final TesterPort port;
    private final byte[] testerGid;
    private final int silenceMillis;
    private int nextTesterQpn = 0x000100;

    CaseRunner(Target target, TesterPort port, byte[] testerGid, int silenceMillis) {
        this.target = target;
        this.port = port;
        this.testerGid = testerGid;
        this.silenceMillis = silenceMillis;
    }

    CaseResult run(ConformanceCase c) {
        if (c.needsInProcessTarget() && !target.inProcess()) {
            return new CaseResult(c, CaseResult.Verdict.SKIP, "not run", "needs the in-process jrxe target "
                    + "(a UD QP or a memory window the exchange does not offer)");
        }
        int testerQpn = nextTesterQpn;
        nextTesterQpn = (nextTesterQpn + 1) & 0xFFFFFF;
        try (TargetQp qp = target.connect(testerQpn, c.startPsn(), testerGid)) {
            CaseContext ctx = qp.context(testerQpn, c.startPsn());
            PeerAddress to = qp.address();
            Map<String, Long> before = counters(c, qp.inspector());
            List<String> observed = new ArrayList<>();
            String problem = null;
            for (ConformanceCase.Step step : c.steps()) {
                try {
                    port.send(step.packet().craft(ctx), step.packet().source(), step.packet().hasBadIcrc(), to);
                } catch (UnsentPacket e) {
                    observed.add("not sent");
                    return new CaseResult(c, CaseResult.Verdict.FAIL, String.join(" / ", observed), e.getMessage());
                }
                List<Answer> answers = collect(step.answers().size(), ctx, to);
                observed.add(describe(answers, ctx));
                if (problem == null) {
                    problem = AnswerMatcher.mismatch(step.answers(), answers, ctx);
                }
            }
            StringBuilder seen = new StringBuilder(String.join(" / ", observed));
            if (qp.inspector() != null) {
                for (TargetCheck check : c.checks()) {
                    String p = check.problem(qp.inspector(), before);
                    seen.append(", ").append(p == null ? check.describe() : p);
                    if (problem == null && p != null) {
                        problem = "in the target: " + p + " instead of " + check.describe();
                    }
                }
            } else if (!c.checks().isEmpty()) {
                seen.append(" (target's inside not checked)");
            }
            return new CaseResult(c, problem == null ? CaseResult.Verdict.PASS : CaseResult.Verdict.FAIL, seen.toString(), problem);
        }
    }

    private static Map<String, Long> counters(ConformanceCase c, TargetInspector inspector) {
        Map<String, Long> values = new HashMap<>();
        if (inspector != null) {
            for (TargetCheck check : c.checks()) {
                if (check instanceof TargetCheck.Counter counter) {
                    values.put(counter.name(), inspector.counter(counter.name()));
                }
            }
        }
        return values;
    }

    /**
     * The answers to this case's QPN: as many as expected, or whatever comes within the silence timeout when none is.
     * Packets to other QPNs (late answers of an earlier case's QP) are passed over.
     */
    private List<Answer> collect(int expected, CaseContext ctx, PeerAddress from) {
        List<Answer> got = new ArrayList<>();
        long deadline = System.nanoTime() + (expected == 0 ? silenceMillis : ANSWER_WAIT_MILLIS) * 1_000_000L;
        while (expected == 0 || got.size() < expected) {
            Answer a = port.receive(from, deadline);
            if (a == null) {
                break;
            }
            if (a.destQpn() == ctx.testerQpn() || a.malformed() != null) {
                got.add(a);
            }
        }
        return got;
    }

    private String describe(List<Answer> answers, CaseContext ctx) {
        if (answers.isEmpty()) {
            return "silence";
        }
        StringBuilder sb = new StringBuilder();
        for (Answer a : answers) {
            sb.append(sb.isEmpty() ? "" : ", ").append(a.describe(ctx));
        }
        return sb.toString();
    }
}
