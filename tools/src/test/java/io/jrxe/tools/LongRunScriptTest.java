package io.jrxe.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * tools/bench/long-run.sh, the hour of mixed traffic with faults and churn, as a short round: a udp-soak pair with
 * faults on both NICs, a qp-churn and a cm-churn pair, each with small counts, run on this build's classes.
 */
class LongRunScriptTest {
    private static final Path SCRIPT = Path.of(System.getProperty("user.dir")).getParent().resolve("tools/bench/long-run.sh");

    @Test
    void oneShortRoundFindsNothingWrong(@TempDir Path dir) throws Exception {
        String jrxe = String.join(" ", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
                JrxeMain.class.getName());
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), "--minutes", "0", "--ops", "200", "--qp-cycles", "100",
                "--cm-cycles", "50", "--keep", dir.resolve("kept").toString())
                .redirectOutput(dir.resolve("out").toFile()).redirectError(dir.resolve("err").toFile());
        pb.environment().put("JRXE", jrxe);
        Process p = pb.start();
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).as("the round ends").isTrue();
        List<String> out = Files.readAllLines(dir.resolve("out"), StandardCharsets.UTF_8);
        String err = Files.readString(dir.resolve("err"), StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(out + err).isZero();
        assertThat(out).hasSize(2);
        assertThat(out.get(0)).matches("round 1: soak ops=400 ok=400 failed=0 mismatches=0 lost=0 duplicated=0 retransmits=\\d+ "
                + "faults=[1-9]\\d* \\(exit 0\\); qp-churn 100 cycles \\(exit 0: every cycle completed; .*flat after the warm-up\\); "
                + "cm-churn 50 connections \\(exit 0: every cycle completed; .*flat after the warm-up\\): good");
        assertThat(out.get(1)).startsWith("long run: 1 rounds in ").contains("failed=0 mismatches=0 lost=0 duplicated=0")
                .endsWith("qp-churn cycles=100; cm-churn connections=50; bad rounds=0");
        assertThat(dir.resolve("kept/round-1/soak.client")).isNotEmptyFile();
    }

    @Test
    void badArgumentsAreRefusedWithTheUsage() throws Exception {
        Process p = new ProcessBuilder("bash", SCRIPT.toString(), "--minutes", "x").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(1);
        assertThat(out).startsWith("usage: ");
    }
}
