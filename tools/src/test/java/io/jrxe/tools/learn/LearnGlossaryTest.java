package io.jrxe.tools.learn;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;

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

    /** Terms the course's commands print (checked in their output here), each with an entry. */
    @Test
    void theTermsTheOutputsPrintHaveEntries() {
        String printed = String.join("\n", InProcess.run("trace").out(), InProcess.run("trace", "--op", "read").out(),
                InProcess.run("mistakes", "--only", "rnr,wrong-rkey").out(),
                InProcess.run("states", "--addr-a", "127.0.62.3", "--addr-b", "127.0.62.4").out()).toLowerCase(Locale.ROOT);
        List<String> terms = List.of("PSN", "MSN", "credits=invalid", "AETH", "RETH", "vendor_err", "lkey", "rkey", "QPN",
                "icrc", "RNR", "SRQ", "MTT", "MPT", "CQE", "WR", "WQE", "SGE", "key variant", "key index", "doorbell",
                "max_inline_data", "P_Key", "AckReq", "min_rnr_timer", "rnr_retry", "rcvd_rnr_err", "REM_ACCESS_ERR",
                "RNR_RETRY_EXC_ERR", "EINVAL", "iova", "byte_len", "sq_psn", "rq_psn", "dest_qp_num", "signaled", "DMA");
        for (String term : terms) {
            assertThat(glossary.has(term)).as("glossary entry %s", term).isTrue();
        }
        assertThat(terms.stream().filter(t -> !t.equals("AckReq") && !t.equals("P_Key"))
                .map(t -> t.toLowerCase(Locale.ROOT))).as("printed by the course's commands").allMatch(printed::contains);
        assertThat(printed).contains(" a=1 ", "pkey_index");
    }

    @Test
    void anEntryIsPrintedByAnyOfItsNames() {
        InProcess r = InProcess.run("learn", "--glossary", "credits=invalid");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).startsWith("credits / credits=invalid\n").contains("31");
        assertThat(InProcess.run("learn", "--glossary", "psn").out()).startsWith("PSN / sq_psn / rq_psn\n");
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
