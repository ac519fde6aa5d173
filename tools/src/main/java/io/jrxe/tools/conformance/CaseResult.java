package io.jrxe.tools.conformance;

/** How one case went: the verdict, what was observed, and for a failure what differed (else null). */
public record CaseResult(ConformanceCase testCase, Verdict verdict, String observed, String problem) {
    public enum Verdict { PASS, FAIL, SKIP }
}
