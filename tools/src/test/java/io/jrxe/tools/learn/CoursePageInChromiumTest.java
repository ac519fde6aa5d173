package io.jrxe.tools.learn;

import io.jrxe.tools.common.InProcess;
import io.jrxe.tools.view.HeadlessChromium;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page `jrxe learn --html` writes, loaded by a real browser (headless chromium) as `view`'s pages are: it loads
 * without a console message, holds every lesson with its answer folded away, and its screenshot shows text (the
 * same measure finds a blank page blank, so it can fail).
 */
class CoursePageInChromiumTest {
    @TempDir
    Path dir;

    private static long count(String text, String what) {
        return Pattern.compile(Pattern.quote(what)).matcher(text).results().count();
    }

    @Test
    void theCoursePageShowsEveryLessonWithItsAnswerFolded() throws IOException {
        HeadlessChromium.assumeInstalled();
        InProcess r = InProcess.run("learn", "--html", dir.resolve("course").toString(), "--addr-a", "127.0.62.5",
                "--addr-b", "127.0.62.6");
        assertThat(r.status()).as(r.toString()).isZero();
        Path page = dir.resolve("course").resolve("index.html");
        assertThat(r.out().strip()).isEqualTo(page.toString());

        HeadlessChromium.Load load = HeadlessChromium.dumpDom(page.toUri().toString());
        assertThat(load.consoleMessages()).isEmpty();
        String dom = load.dom();
        assertThat(count(dom, "<section class=\"lesson\" id=\"lesson-")).isEqualTo((long) Course.LESSONS.size());
        assertThat(count(dom, "<details>")).as("answers folded").isEqualTo((long) Course.LESSONS.size());
        assertThat(dom).doesNotContain("<details open").contains("0x000020fc", "RC RDMA_READ_RESPONSE_ONLY",
                "<pre>jrxe states</pre>", "id=\"glossary\"", "credits / credits=invalid");

        Path png = dir.resolve("course.png");
        HeadlessChromium.screenshot(page.toUri().toString(), png, 1000, 800);
        assertThat(HeadlessChromium.inked(png)).as("share of the screenshot that is not background").isGreaterThan(0.02);
    }

    @Test
    void aBlankPageIsSeenAsBlank() throws IOException {
        HeadlessChromium.assumeInstalled();
        Path blank = Files.writeString(dir.resolve("blank.html"),
                "<!DOCTYPE html><html><body style=\"background: #fff\"></body></html>");
        Path png = dir.resolve("blank.png");
        HeadlessChromium.screenshot(blank.toUri().toString(), png, 1000, 800);
        assertThat(HeadlessChromium.inked(png)).isLessThan(0.001);
    }
}
