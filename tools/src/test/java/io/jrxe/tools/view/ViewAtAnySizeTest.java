package io.jrxe.tools.view;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe view` of a capture larger than --max-packets: the page opens on the analysis of every frame, holds the ladders
 * of its start and of the stretches around its findings, and its size grows with those, not with the capture; in a
 * real browser, a click on a finding draws the ladder around it with that packet selected.
 */
class ViewAtAnySizeTest {
    private static final int START = 1_000;

    @TempDir
    Path dir;

    private Path page(int frames) {
        Path capture = dir.resolve(frames + ".pcapng");
        LongTransfer.write(capture, frames);
        Path page = dir.resolve(frames + ".html");
        InProcess r = InProcess.run("view", capture.toString(), "-o", page.toString(), "--max-packets", "" + START);
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("the analysis all of them");
        return page;
    }

    @Test
    void fiveTimesTheFramesIsNotFiveTimesThePageAndTheFindingsAreAClickAway() throws IOException {
        HeadlessChromium.assumeInstalled();
        Path small = page(6_000);
        Path large = page(30_000);
        long smallBytes = Files.size(small);
        long largeBytes = Files.size(large);
        assertThat(largeBytes).as("page of 30,000 frames against 6,000's (%d bytes)", smallBytes).isLessThan(2 * smallBytes);
        PageData data = PageData.read(large);
        assertThat(data.packets()).hasSize(START);
        String html = data.html();
        // The analysis of every frame: the four losses and their resends, with links to their frames.
        assertThat(html).contains("<section id=\"analysis\">", "frames (30,", "RoCEv2", "data-frame=\"")
                .contains("The capture holds 30,0").contains("not drawn as arrows");
        assertThat(html.split("class=\"stretch\"", -1)).as("a stretch around each loss").hasSize(1 + 4);
        ViewCommandTest.assertSelfContained(html);

        // Click the last finding's link, as a user would, then note what the page shows.
        String clicker = "<script>var links = document.querySelectorAll('#analysis a[data-frame]');"
                + "var last = links[links.length - 1]; last.click();"
                + "var sel = document.querySelector('#ladders .arrow.sel');"
                + "document.body.setAttribute('data-clicked', last.getAttribute('data-frame') + '/'"
                + " + (sel ? sel.getAttribute('data-i') : 'none'));</script></body>";
        Path driven = Files.writeString(dir.resolve("driven.html"), Files.readString(large).replace("</body>", clicker));
        HeadlessChromium.Load load = HeadlessChromium.dumpDom(driven.toUri().toString());
        assertThat(load.consoleMessages()).isEmpty();
        String dom = load.dom();
        // What the page's script says of itself is on the body element (its source, also in the DOM, left out).
        String bodyTag = dom.substring(dom.indexOf("<body"), dom.indexOf('>', dom.indexOf("<body")) + 1);
        assertThat(bodyTag).contains("data-ladder-done=\"true\"").doesNotContain("data-error=", "data-missing-frame");
        assertThat(bodyTag).containsPattern("data-stretch=\"[1-9][0-9]*\"").containsPattern("data-clicked=\"[0-9]+/[0-9]+\"");
        String arrows = bodyTag.replaceAll("(?s).*data-arrows=\"([0-9]+)\".*", "$1");
        assertThat(Integer.parseInt(arrows)).as("the stretch around the loss").isBetween(StretchPlan.AROUND, 2 * StretchPlan.AROUND + 1);
        // The selected packet's headers name the clicked frame.
        String frame = bodyTag.replaceAll("(?s).*data-clicked=\"([0-9]+)/.*", "$1");
        assertThat(dom.substring(dom.indexOf("<div id=\"tree\">"))).contains("<summary>Frame " + frame + "</summary>");
    }

    @Test
    void thePlanHasABoundWhateverTheFindings() {
        List<Long> findings = new ArrayList<>();
        LongStream.range(0, 5_000).forEach(i -> findings.add(10_000 + i * 997));
        List<long[]> plan = StretchPlan.of(10_000_000, 5_000, findings, List.of(3_000_000L));
        assertThat(plan).hasSize(1 + 1 + StretchPlan.MOST_AROUND_FINDINGS);
        long frames = plan.stream().mapToLong(s -> s[1] - s[0] + 1).sum();
        assertThat(frames).isLessThanOrEqualTo(5_000 + (1 + StretchPlan.MOST_AROUND_FINDINGS) * (2L * StretchPlan.AROUND + 1));
        for (int i = 1; i < plan.size(); i++) {
            assertThat(plan.get(i)[0]).as("stretches sorted and apart").isGreaterThan(plan.get(i - 1)[1] + 1);
        }
        assertThat(StretchPlan.covered(plan, 3_000_000L)).isTrue();
    }
}
