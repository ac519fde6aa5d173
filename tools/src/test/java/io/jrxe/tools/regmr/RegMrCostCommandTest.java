package io.jrxe.tools.regmr;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe regmr-cost` on jrxe NICs made in the test's JVM, with small sizes. Timings vary from run to run, so only
 * what holds for any timings is asserted: a row per size, medians between min and max, a readable plot file.
 */
class RegMrCostCommandTest {
    @TempDir
    Path dir;

    /**
     * A machine without fonts (the lab's minimal guest is one): AWT throws an Error when the plot is drawn. The
     * table is printed, then one line says why there is no plot and what to install; exit 2, no stack trace. A
     * font configuration that does not exist makes any machine such a one.
     */
    @Test
    void withoutFontsThePlotFailsInOneLineAfterTheTable() throws Exception {
        Path png = dir.resolve("cost.png");
        try (ChildJrxe child = ChildJrxe.startIn(List.of("env", "JAVA_TOOL_OPTIONS=-Dsun.awt.fontconfig=" + dir.resolve("none")),
                "regmr-cost", "--sizes", "4K", "--repeat", "1", "--plot", png.toString())) {
            assertThat(child.waitFor(60)).as(child.stderr()).isEqualTo(2);
            assertThat(child.stdoutLines()).anyMatch(l -> l.trim().startsWith("4KiB"));
            assertThat(child.stderr().lines().filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS")).toList())
                    .singleElement().asString()
                    .startsWith("jrxe regmr-cost: --plot " + png + ": Java could not draw on this machine")
                    .contains("fonts-dejavu-core");
            assertThat(png).doesNotExist();
        }
    }

    @Test
    void everySizeHasARowWithItsPagesAndMediansBetweenMinAndMaxAndThePngIsWritten() throws Exception {
        Path png = dir.resolve("cost.png");
        InProcess r = InProcess.run("regmr-cost", "--sizes", "4K,64K,1M", "--repeat", "3", "--plot", png.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines().getFirst()).startsWith("jrxe0 (emulated): reg_mr and dereg_mr, microseconds");
        List<String[]> rows = rows(r);
        assertThat(rows).extracting(row -> row[0] + " " + row[1]).containsExactly("4KiB 1", "64KiB 16", "1MiB 256");
        rows.forEach(RegMrCostCommandTest::assertMediansWithinMinAndMax);
        // Warm-up passes came first, and every size ran at least three rounds, of which only the last is reported.
        assertThat(r.lines()).anyMatch(l -> l.matches("  warm-up: \\d+ untimed passes over every size, .*"));
        assertThat(rows).allSatisfy(row -> assertThat(Integer.parseInt(row[8].replace("*", ""))).isBetween(3, 30));
        assertThat(rows).extracting(row -> row[9]).first().isEqualTo("-");
        assertThat(r.lines()).anyMatch(l -> l.matches("  per page: -?\\d+\\.\\d ns \\(the slope of a least-squares line .*"));
        byte[] bytes = Files.readAllBytes(png);
        assertThat(Arrays.copyOf(bytes, 8)).containsExactly(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
        BufferedImage image = ImageIO.read(png.toFile());
        assertThat(image.getWidth()).isEqualTo(CostPlot.WIDTH);
        assertThat(image.getHeight()).isEqualTo(CostPlot.HEIGHT);
    }

    @Test
    void twoDevicesAreTwoBlocksAndTheSvgDrawsEachInItsColourSolidForRegAndDashedForDereg() throws Exception {
        Path svg = dir.resolve("cost.SVG");
        InProcess r = InProcess.run("regmr-cost", "--sizes", "4K,16K", "--repeat", "2", "-d", "jrxe0", "-d", "jrxe1",
                "--plot", svg.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.out()).contains("jrxe0 (emulated)", "jrxe1 (emulated)");
        assertThat(rows(r)).hasSize(4);
        DocumentBuilderFactory xml = DocumentBuilderFactory.newInstance();
        // The SVG names the W3C's DTD; reading it would go to the network, and parsing needs no validation.
        xml.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document doc = xml.newDocumentBuilder().parse(svg.toFile());
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getElementsByTagName("path").getLength()).isGreaterThanOrEqualTo(4);
        // XChart's SVG draws text as outlines, so the series are told apart by their strokes.
        String text = Files.readString(svg);
        Set<String> dashed = strokeColours(text, true);
        assertThat(dashed).as("one dashed deregistration line per device").hasSize(2);
        assertThat(strokeColours(text, false)).as("each device's registration line, solid").containsAll(dashed);
    }

    /**
     * --odp on a NIC of this test's own address: registration pins nothing, so the first touch of each fresh
     * registration brings every one of its pages in, and the device's model charges its fault cost (5 us) for each.
     * Counts, not timings, are what is asserted.
     */
    @Test
    void onDemandRegistrationsPinNothingAndTheFirstTouchBringsEveryPageIn() {
        InProcess r = InProcess.run("regmr-cost", "--addr", "127.0.72.5", "--odp", "--sizes", "4K,64K,1M", "--repeat", "2");
        assertThat(r.status()).as(r.toString()).isZero();
        List<String[]> registrations = rows(r).stream().filter(row -> row.length == 10).toList();
        List<String[]> touches = rows(r).stream().filter(row -> row.length == 7).toList();
        assertThat(registrations).extracting(row -> row[0] + " " + row[1]).containsExactly("4KiB 1", "64KiB 16", "1MiB 256");
        registrations.forEach(RegMrCostCommandTest::assertMediansWithinMinAndMax);
        assertThat(r.lines()).anyMatch(l -> l.startsWith("  first touch of a fresh ON_DEMAND registration"));
        assertThat(touches).as(r.out()).extracting(row -> row[0] + " " + row[1] + " in " + row[5] + " modelled " + row[6])
                .containsExactly("4KiB 1 in 1 modelled 5.0", "64KiB 16 in 16 modelled 80.0", "1MiB 256 in 256 modelled 1,280");
        for (String[] row : touches) {
            double[] v = Arrays.stream(row, 2, 5).mapToDouble(t -> Double.parseDouble(t.replace(",", ""))).toArray();
            assertThat(v[0]).as(String.join(" ", row)).isBetween(v[1], v[2]);
        }
    }

    @Test
    void aBadSizeIsOneLineNamingTheOption() {
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K,12Q"), "--sizes");
    }

    @Test
    void aPlotThatIsNeitherPngNorSvgIsRefusedBeforeMeasuring() {
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K", "--plot", dir.resolve("cost.pdf").toString()), "--plot");
        assertThat(dir.resolve("cost.pdf")).doesNotExist();
    }

    @Test
    void aSizeBeyondHalfTheAvailableMemoryIsRefused() {
        InProcess r = InProcess.run("regmr-cost", "--sizes", "4K,1000T");
        assertBadOption(r, "--sizes");
        assertThat(r.err()).contains("1,000 TiB is more than half the memory available");
    }

    @Test
    void aToleranceAndABoundOnRoundsOutOfRangeAreRefused() {
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K", "--tolerance", "0"), "--tolerance");
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K", "--tolerance", "NaN"), "--tolerance");
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K", "--max-rounds", "2"), "--max-rounds");
    }

    @Test
    void aRepeatOfZeroAndADeviceTwiceAreRefused() {
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K", "--repeat", "0"), "--repeat");
        assertBadOption(InProcess.run("regmr-cost", "--sizes", "4K", "-d", "jrxe0", "-d", "jrxe0"), "-d");
    }

    private static Set<String> strokeColours(String svg, boolean dashed) {
        Matcher m = Pattern.compile("style=\"fill:none;stroke:(rgb\\([0-9,]+\\));[^\"]*\"").matcher(svg);
        Set<String> colours = new HashSet<>();
        while (m.find()) {
            // Series lines are 2 wide; the axes and grid are thinner, and grey.
            if (m.group().contains("stroke-width:2;") && m.group().contains("stroke-dasharray") == dashed) {
                colours.add(m.group(1));
            }
        }
        return colours;
    }

    private static void assertBadOption(InProcess r, String option) {
        assertThat(r.status()).as(r.toString()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err().lines()).as(r.toString()).singleElement().asString().contains(option);
    }

    /** The table's rows: size, pages, then reg median, min, max and dereg median, min, max. */
    private static List<String[]> rows(InProcess r) {
        return r.lines().stream().map(String::strip).filter(l -> l.matches("\\d+[KMG]?i?B .*"))
                .map(l -> l.split("\\s+")).toList();
    }

    private static void assertMediansWithinMinAndMax(String[] row) {
        double[] v = Arrays.stream(row, 2, 8).mapToDouble(s -> Double.parseDouble(s.replace(",", ""))).toArray();
        assertThat(v[0]).as(String.join(" ", row)).isBetween(v[1], v[2]);
        assertThat(v[3]).as(String.join(" ", row)).isBetween(v[4], v[5]);
        assertThat(v[1]).as("a registration takes time: " + String.join(" ", row)).isPositive();
    }
}
