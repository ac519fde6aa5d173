package io.jrxe.tools.churn;

import io.jrxe.tools.JrxeMain;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe qp-churn` run in-process: its checkpoints, its verdict, its refusals. */
class QpChurnCommandTest {
    record Result(int exit, List<String> out, String err) {
    }

    private static Result run(String... argv) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = JrxeMain.run(argv, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(exit, out.toString().lines().toList(), err.toString());
    }

    @Test
    void threeHundredCyclesPrintTenCheckpointsAndStayFlat() {
        Result r = run("qp-churn", "--cycles", "300", "--addr-a", "127.0.39.1", "--addr-b", "127.0.39.2");
        assertThat(r.exit()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).hasSize(11);
        assertThat(r.out().subList(0, 10)).allSatisfy(l -> assertThat(l)
                .matches("qp churn: cycles=\\d+ time=\\d+\\.\\ds heap=\\d+\\.\\dMiB threads=\\d+ open_files=(\\d+|n/a) "
                        + "slowest_since_last=\\d+\\.\\dms \\(cycle \\d+\\)"));
        assertThat(r.out().get(9)).startsWith("qp churn: cycles=300 ");
        assertThat(r.out().getLast()).startsWith("every cycle completed; slowest after the warm-up ")
                .endsWith("; flat after the warm-up");
    }

    @Test
    void badOptionsAreOneLineEach() {
        Result cycles = run("qp-churn", "--cycles", "0");
        assertThat(cycles.exit()).isEqualTo(1);
        assertThat(cycles.err()).contains("--cycles 0: from 1 to 100,000,000").doesNotContain("Exception");
        Result same = run("qp-churn", "--addr-a", "127.0.39.1", "--addr-b", "127.0.39.1");
        assertThat(same.exit()).isEqualTo(1);
        assertThat(same.err()).contains("two addresses, not both 127.0.39.1");
        Result progress = run("qp-churn", "--progress", "fast");
        assertThat(progress.exit()).isEqualTo(1);
        assertThat(progress.err()).contains("--progress fast: thread or invoker");
    }
}
