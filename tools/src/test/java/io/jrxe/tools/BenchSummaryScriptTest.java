package io.jrxe.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rows the benchmark scripts end with (tools/bench/pairs.sh's bench_end): per target, the rounds that met it,
 * its median and each round's figure, fed here with figures made up for the purpose instead of benchmark runs.
 */
class BenchSummaryScriptTest {
    private static final Path PAIRS = Path.of(System.getProperty("user.dir")).getParent().resolve("tools/bench/pairs.sh");

    private static Result summarise(Path dir, int rounds, String checks) throws Exception {
        return bash(dir, "rounds=" + rounds + "; " + checks + " bench_end");
    }

    /** Runs {@code commands} in bash after sourcing pairs.sh, with its output directory {@code dir}. */
    private static Result bash(Path dir, String commands) throws Exception {
        String script = "source '" + PAIRS + "'; out='" + dir + "'; " + commands;
        Process p = new ProcessBuilder("bash", "-c", script).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).as("bash ends").isTrue();
        return new Result(p.exitValue(), out);
    }

    private record Result(int exit, String out) {
    }

    @Test
    void eachTargetShowsTheRoundsThatMetItAndItsMedian(@TempDir Path dir) throws Exception {
        Result r = summarise(dir, 3, """
                check 'bw ratio' 2.5 '>=' 2.0; check 'lat ratio' 0.4 '<=' 0.5;
                check 'bw ratio' 1.5 '>=' 2.0; check 'lat ratio' 0.6 '<=' 0.5;
                check 'bw ratio' 2.1 '>=' 2.0; check 'lat ratio' 0.2 '<=' 0.5;""");
        assertThat(r.exit()).as(r.out()).isEqualTo(1);
        assertThat(r.out()).contains("over 3 round(s):")
                .containsPattern("  bw ratio +median   2\\.100  >= 2\\.0    met in 2 of 3 \\(2\\.5, 1\\.5, 2\\.1\\)\n")
                .containsPattern("  lat ratio +median   0\\.400  <= 0\\.5    met in 2 of 3 \\(0\\.4, 0\\.6, 0\\.2\\)\n")
                .endsWith("2 target(s) missed over 3 round(s)\n");
        assertThat(r.out().indexOf("  bw ratio  ")).as("targets in the order first checked")
                .isLessThan(r.out().indexOf("  lat ratio  ", r.out().indexOf("over 3 round(s):")));
    }

    @Test
    void thePausesOfABaselineGiveTheShareOfRoundTripsTheyMeet(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("udp"), "ping-pong round trip, 64 bytes, 20000 iterations: p50 27.90 us\n"
                + "machine pauses, 2 threads spinning 2.0 s with no socket: per thread-second >2 us 2246, >5 us 1266, "
                + ">10 us 1227, >20 us 668, >50 us 120, >100 us 28, >1 ms 3; 4.6% of the time lost, the longest 4.43 ms\n");
        Result r = bash(dir, "echo \"$(pauses_over 10) $(pauses_over 50) [$(pauses_over 3)]\"; pause_share_pct \"$(pauses_over 10)\" 6.8");
        // 2 threads x 1227 pauses a second x 6.8 us a round trip = 1.669% of round trips
        assertThat(r.out()).as("pauses above 10 and 50 us, none for an unprinted threshold; then the share")
                .isEqualTo("1227 120 []\n1.669");
    }

    @Test
    void anEvenCountTakesTheMeanOfTheMiddleTwoAndAllMetExitsZero(@TempDir Path dir) throws Exception {
        Result r = summarise(dir, 4, "check x 3 '>=' 1; check x 1 '>=' 1; check x 10 '>=' 1; check x 2 '>=' 1;");
        assertThat(r.exit()).as(r.out()).isZero();
        assertThat(r.out()).containsPattern("  x +median   2\\.500  >= 1 +met in 4 of 4 \\(3, 1, 10, 2\\)\n")
                .endsWith("0 target(s) missed over 4 round(s)\n");
    }
}
