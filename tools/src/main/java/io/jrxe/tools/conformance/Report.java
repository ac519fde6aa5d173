package io.jrxe.tools.conformance;

import java.io.PrintWriter;

/**
 * The report: one row per case (verdict, id, name, what was expected and by whose rule, what was observed, and
 * for a failure what differed), then a totals line.
 */
final class Report {
    private final PrintWriter out;
    private int passed;
    private int failed;
    private int skipped;

    Report(PrintWriter out) {
        this.out = out;
    }

    void row(CaseResult r) {
        ConformanceCase c = r.testCase();
        switch (r.verdict()) {
            case PASS -> passed++;
            case FAIL -> failed++;
            case SKIP -> skipped++;
        }
        String tail = switch (r.verdict()) {
            case PASS -> "";
            case FAIL -> "  <- " + r.problem();
            case SKIP -> "  (" + r.problem() + ")";
        };
        out.printf("%-4s  %-7s %-62s expected [%s]: %s | observed: %s%s%n", r.verdict(), c.id(), c.name(),
                c.reference().label(), c.expected(), r.observed(), tail);
        out.flush();
    }

    /** The last line: how many ran, passed, failed, were skipped. */
    void totals() {
        out.printf("conformance: %d cases, %d passed, %d failed, %d skipped%n", passed + failed + skipped, passed, failed,
                skipped);
        out.flush();
    }

    int passed() {
        return passed;
    }

    int failed() {
        return failed;
    }

    /** The case table without running it (--list): id, group, name, reference, expectation and note. */
    static void list(PrintWriter out, Iterable<ConformanceCase> cases) {
        for (ConformanceCase c : cases) {
            out.printf("%-7s %-16s %-62s [%s] %s%s%n", c.id(), c.group(), c.name(), c.reference().label(), c.expected(),
                    c.note().isEmpty() ? "" : " -- " + c.note());
        }
        out.flush();
    }
}
