package io.jrxe.tools.learn;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The glossary explains every term the lessons name and the terms their commands print. */
class LearnGlossaryTest {
    private final Glossary glossary = Glossary.load();

    @Test
    void everyTermALessonNamesHasAnEntry() {
        for (Lesson lesson : Course.LESSONS) {
            LessonText text = LessonText.load(lesson.file());
            assertThat(text.terms()).as(lesson.file()).isNotEmpty();
            assertThat(text.terms()).as("terms of %s missing from docs/course/glossary.md", lesson.file())
                    .allMatch(glossary::has);
        }
    }

    /**
     * Every term the lessons' commands print has an entry: the names in capitals (AETH, REM_ACCESS_ERR, DEST_QPN), the
     * names before an = (psn=, credits=, vendor_err=) and the verbs (ibv_reg_mr), taken from a run of every command of
     * every lesson, so a tool that starts printing a new term asks for its entry.
     */
    @Test
    void everyTermTheLessonsCommandsPrintHasAnEntry() {
        Pattern term = Pattern.compile("\\b([A-Z][A-Z0-9_]*[A-Z0-9])\\b|\\b([a-z_]+)=|\\b(ibv_[a-z_]+)");
        Set<String> printed = new TreeSet<>();
        for (Lesson lesson : Course.LESSONS) {
            for (String command : LessonText.load(lesson.file()).commands()) {
                InProcess r = StudentRun.of(command);
                assertThat(r.status()).as("%s: %s", command, r).isZero();
                Matcher m = term.matcher(r.out());
                while (m.find()) {
                    printed.add(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3));
                }
            }
        }
        assertThat(printed).as("the terms found").contains("AETH", "ICRC", "REM_ACCESS_ERR", "psn", "credits", "vendor_err",
                "ibv_reg_mr", "DEST_QPN");
        assertThat(printed.stream().filter(t -> !glossary.has(t)).toList()).as("printed, and not in docs/course/glossary.md")
                .isEmpty();
    }

    @Test
    void anEntryIsPrintedByAnyOfItsNames() {
        InProcess r = InProcess.run("learn", "--glossary", "credits=invalid");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("credits / credits=invalid\n").contains("31");
        assertThat(InProcess.run("learn", "--glossary", "SQ_PSN").out()).startsWith("PSN / sq_psn / rq_psn / SQ_PSN");
        InProcess all = InProcess.run("learn", "--glossary");
        assertThat(all.status()).isZero();
        assertThat(all.lines()).hasSize(glossary.entries().size() + 1);
    }

    @Test
    void anUnknownTermIsOneLineAndExit2() {
        InProcess r = InProcess.run("learn", "--glossary", "PSX");
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.err().lines().toList()).hasSize(1);
        assertThat(r.err()).startsWith("jrxe learn: no glossary entry 'PSX'").contains("PSN");
    }
}
