package io.jrxe.tools.soak;

import io.jrxe.tools.JrxeMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** `jrxe soak` run in-process through {@link JrxeMain#run}: its one summary line, its progress, its exit statuses. */
class SoakCommandTest {
    private static final Pattern SUMMARY = Pattern.compile(
            "ops=(\\d+) ok=(\\d+) mismatches=(\\d+) lost_completions=(\\d+) retransmits=(\\d+) seed=(-?\\d+)");

    record Run(int exit, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }

        List<String> errLines() {
            return err.lines().toList();
        }
    }

    static Run soak(String... args) {
        String[] argv = new String[args.length + 1];
        argv[0] = "soak";
        System.arraycopy(args, 0, argv, 1, args.length);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = JrxeMain.run(argv, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void aPassingRunPrintsExactlyOneSummaryLineAndExitsZero() {
        Run run = soak("--seed", "11", "--ops", "300");
        assertThat(run.exit()).isZero();
        assertThat(run.outLines()).hasSize(1);
        Matcher m = SUMMARY.matcher(run.outLines().getFirst());
        assertThat(m.matches()).as(run.out()).isTrue();
        assertThat(m.group(1)).isEqualTo("300");
        assertThat(m.group(2)).isEqualTo("300");
        assertThat(m.group(3)).isEqualTo("0");
        assertThat(m.group(4)).isEqualTo("0");
        assertThat(m.group(6)).isEqualTo("11");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void withoutASeedOneIsChosenAndPrintedAndItReplaysTheRun() {
        Run first = soak("--ops", "200");
        assertThat(first.exit()).isZero();
        Matcher m = SUMMARY.matcher(first.outLines().getFirst());
        assertThat(m.matches()).isTrue();
        Run again = soak("--ops", "200", "--seed", m.group(6));
        assertThat(again.out()).isEqualTo(first.out());
    }

    @Test
    void progressGoesToStderrAboutEveryTenthOfTheRun() {
        Run run = soak("--seed", "3", "--ops", "2000", "--qps", "2");
        assertThat(run.exit()).isZero();
        assertThat(run.outLines()).hasSize(1);
        assertThat(run.errLines()).hasSize(10).allMatch(l -> l.matches("soak: \\d+/2000 ops done, virtual time \\d+\\.\\d{3} s"));
        assertThat(run.errLines().getLast()).startsWith("soak: 2000/2000 ops done");
    }

    @Test
    void aRunWithFailuresSaysWhyOnStderrAndExitsOne() {
        // Every packet lost: the first work request of each QP exhausts retry_cnt, the rest are flushed.
        Run run = soak("--seed", "1", "--ops", "40", "--loss", "1");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.outLines()).hasSize(1);
        Matcher m = SUMMARY.matcher(run.outLines().getFirst());
        assertThat(m.matches()).isTrue();
        assertThat(m.group(2)).isEqualTo("0");
        assertThat(Long.parseLong(m.group(3))).isPositive();
        assertThat(run.err()).contains("RETRY_EXC_ERR");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--loss|2|--loss 2 is not a probability (0..1)",
        "--reorder|-0.5|--reorder -0.5 is not a probability (0..1)",
        "--dup|1.5|--dup 1.5 is not a probability (0..1)",
        "--corrupt|NaN|--corrupt NaN is not a probability (0..1)",
        "--ops|-1|--ops -1 is negative: give the number of operations to run (0 or more)",
        "--qps|0|--qps 0 is not in 1..64",
        "--qps|65|--qps 65 is not in 1..64",
    })
    void aBadValueIsOneLineSayingWhatIsWrongAndExitsOne(String option, String value, String message) {
        Run run = option.equals("--ops") ? soak(option, value) : soak(option, value, "--ops", "10");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).containsExactly("jrxe soak: " + message + " (see 'jrxe soak --help')");
    }

    @Test
    void aValueThatIsNotANumberIsABadOptionToo() {
        Run run = soak("--ops", "many");
        assertThat(run.exit()).isEqualTo(1);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines().getFirst()).startsWith("jrxe soak: ").contains("'many'");
    }

    @Test
    void zeroOperationsIsAnEmptyPassingRun() {
        Run run = soak("--seed", "9", "--ops", "0");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).isEqualTo("ops=0 ok=0 mismatches=0 lost_completions=0 retransmits=0 seed=9" + System.lineSeparator());
    }

    @Test
    void helpNamesEveryOptionAndTheExitStatuses() {
        Run run = soak("--help");
        assertThat(run.exit()).isZero();
        assertThat(run.out()).contains("--seed", "--ops", "--qps", "--loss", "--reorder", "--dup", "--corrupt",
                "Exit status:");
    }
}
