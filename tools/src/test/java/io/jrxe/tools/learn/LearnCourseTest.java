package io.jrxe.tools.learn;

import io.jrxe.tools.JrxeMain;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The course taken as a student takes it: every lesson printed, its command run and the answer found in what the
 * command printed, the checker asked with that answer (accepted) and with wrong ones (refused with a hint that does
 * not give the answer away); and the answers the same from run to run, so a worksheet can quote them.
 */
class LearnCourseTest {
    static Stream<Integer> lessons() {
        return IntStream.rangeClosed(1, Course.LESSONS.size()).boxed();
    }

    private static InProcess learn(String... args) {
        return InProcess.run(Stream.concat(Stream.concat(Stream.of("learn"), Stream.of(args)), Stream.of(StudentRun.ADDRESSES))
                .toArray(String[]::new));
    }

    /** The answer `--answer` reveals, as its "Answer: " line shows it. */
    private static String revealed(int lesson) {
        InProcess r = learn(String.valueOf(lesson), "--answer");
        assertThat(r.status()).as(r.toString()).isZero();
        return r.lines().stream().filter(l -> l.startsWith("Answer: ")).findFirst()
                .map(l -> l.substring("Answer: ".length())).orElseThrow();
    }

    @Test
    void theListNamesEveryLessonInOrder() {
        InProcess r = learn();
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("9 lessons", " 1  Why RDMA", " 3  The QP state machine", " 9  Classic mistakes");
        assertThat(Course.LESSONS).hasSizeBetween(9, 10);
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void eachLessonHasACommandJrxeHasAndAQuestion(int lesson) {
        InProcess r = learn(String.valueOf(lesson));
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).startsWith("Lesson " + lesson + " of " + Course.LESSONS.size() + ": ")
                .contains("\nRun:\n  jrxe ", "\nLook at:\n", "\nQuestion:\n", "jrxe learn " + lesson + " --check ANSWER");
        LessonText text = LessonText.load(Course.lesson(String.valueOf(lesson)).file());
        assertThat(text.commands()).isNotEmpty();
        for (String[] args : LessonText.arguments(text.commands())) {
            CommandLine jrxe = JrxeMain.commandLine();
            CommandLine.ParseResult parsed = jrxe.parseArgs(args);
            assertThat(parsed.hasSubcommand()).as("jrxe %s", String.join(" ", args)).isTrue();
        }
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void theRightAnswerIsAcceptedAndWrongOnesAreRefusedWithAHint(int lesson) {
        String answer = revealed(lesson);
        String given = answer.matches("[a-z]\\) .*") ? answer.substring(0, 1) : answer;
        InProcess right = learn(String.valueOf(lesson), "--check", given);
        assertThat(right.status()).as(right.toString()).isZero();
        assertThat(right.out()).startsWith("right: ");

        List<String> wrongs = new ArrayList<>(List.of("no-such-thing"));
        Long number = Answer.parsedNumber(answer);
        if (number != null) {
            wrongs.add(String.valueOf(number + 1));
        }
        if (given.length() == 1) {
            wrongs.add(given.equals("a") ? "b" : "a");
        }
        for (String wrong : wrongs) {
            InProcess r = learn(String.valueOf(lesson), "--check", wrong);
            assertThat(r.status()).as(r.toString()).isEqualTo(1);
            assertThat(r.lines()).as(r.toString()).hasSize(1);
            assertThat(r.out()).startsWith("wrong: not " + wrong + ". Hint: ");
            assertThat(r.out().substring(r.out().indexOf("Hint: "))).doesNotContain(answer);
        }
    }

    /** The student finds the answer in what the lesson's command printed: the checker reads the same run. */
    @ParameterizedTest
    @MethodSource("lessons")
    void theAnswerIsWhatTheLessonsCommandPrints(int lesson) {
        String answer = revealed(lesson);
        if (answer.matches("[a-z]\\) .*")) {
            return;
        }
        LessonText text = LessonText.load(Course.lesson(String.valueOf(lesson)).file());
        InProcess r = StudentRun.of(text.commands().getFirst());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).as("the output of %s", text.commands().getFirst()).contains(answer);
    }

    @ParameterizedTest
    @MethodSource("lessons")
    void theAnswerAndItsExplanationAreTheSameEachRun(int lesson) {
        InProcess first = learn(String.valueOf(lesson), "--answer");
        InProcess second = learn(String.valueOf(lesson), "--answer");
        assertThat(first.status()).as(first.toString()).isZero();
        assertThat(first.out()).doesNotContain("{").isEqualTo(second.out());
    }

    /**
     * What a lesson's commands print is the same on two runs but for host memory addresses (where the JVM put the
     * buffers) and regmr-cost's timings, which the lessons say vary and ask nothing about: a worksheet may quote the rest.
     */
    @ParameterizedTest
    @MethodSource("lessons")
    void theLessonsCommandsPrintTheSameEachRun(int lesson) {
        for (String command : LessonText.load(Course.lesson(String.valueOf(lesson)).file()).commands()) {
            if (command.startsWith("jrxe regmr-cost")) {
                continue;
            }
            InProcess first = StudentRun.of(command);
            InProcess second = StudentRun.of(command);
            assertThat(first.status()).as("%s: %s", command, first).isZero();
            assertThat(withoutHostAddresses(second.out())).as(command).isEqualTo(withoutHostAddresses(first.out()));
        }
    }

    private static String withoutHostAddresses(String text) {
        return text.replaceAll("0x[0-9a-f]{9,12}\\b", "0x(address)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "99", "two"})
    void aLessonThatDoesNotExistIsOneLineAndExit2(String lesson) {
        InProcess r = InProcess.run("learn", lesson);
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines().toList()).as(r.toString()).hasSize(1);
        assertThat(r.err()).startsWith("jrxe learn: no lesson ").contains("1.." + Course.LESSONS.size());
    }

    @Test
    void aCheckWithoutAnAnswerOrWithoutALessonIsOneLineAndExit2() {
        for (String[] args : List.of(new String[] {"learn", "3", "--check"}, new String[] {"learn", "3", "--check", " "},
                new String[] {"learn", "--check", "RTS"}, new String[] {"learn", "--answer"})) {
            InProcess r = InProcess.run(args);
            assertThat(r.status()).as(r.toString()).isEqualTo(2);
            assertThat(r.out()).isEmpty();
            assertThat(r.err().lines().toList()).as(r.toString()).hasSize(1);
            assertThat(r.err()).startsWith("jrxe learn: --check");
        }
    }

    @Test
    void answersAreAcceptedInTheSpellingsAStudentUses() {
        Answer key = Answer.number(0x20fc, "0x000020fc");
        assertThat(Stream.of("0x000020fc", "0x20FC", "8444", " 0x20fc ")).allMatch(key::accepts);
        assertThat(Stream.of("0x20fd", "20fc", "")).noneMatch(key::accepts);
        Answer bytes = Answer.number(2_097_152, "2,097,152");
        assertThat(Stream.of("2,097,152", "2097152", "2097152 bytes", "2_097_152 B")).allMatch(bytes::accepts);
        Answer status = Answer.words("REM_ACCESS_ERR", "IBV_WC_REM_ACCESS_ERR");
        assertThat(Stream.of("rem_access_err", "REM ACCESS ERR", "ibv_wc_rem_access_err")).allMatch(status::accepts);
        assertThat(status.accepts("LOC_PROT_ERR")).isFalse();
        Answer choice = Answer.choice('c', "ibv_reg_mr");
        assertThat(Stream.of("c", "C)", "(c)", "ibv_reg_mr", "c) ibv_reg_mr")).allMatch(choice::accepts);
        assertThat(Stream.of("a", "b", "ibv_post_send")).noneMatch(choice::accepts);
    }
}
