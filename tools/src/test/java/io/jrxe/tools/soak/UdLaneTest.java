package io.jrxe.tools.soak;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --with ud}: one more QP pair, of UD, whose datagrams the faulty network may lose (expected failures) or
 * duplicate (received twice, as UD must: it has no duplicate detection), but never deliver wrong.
 */
class UdLaneTest {
    private static final Pattern UD_SUMMARY = Pattern.compile(
            "soak: UD: (\\d+) datagrams, (\\d+) of them lost on the way \\(expected failures\\), (\\d+) received twice");

    private static SoakConfig withUd(long seed, int ops) {
        return SoakConfig.defaults(seed).withOps(ops).with(List.of("ud"));
    }

    @Test
    void theUdPairCarriesDatagramsUpToOneMtuLosesSomeAndNothingIsWrong() throws Exception {
        StringWriter problems = new StringWriter();
        StringWriter trace = new StringWriter();
        SoakConfig config = withUd(2, 2_000);
        SoakResult result = new SoakRun(config).diagnostics(new PrintWriter(problems, true))
                .trace(new PrintWriter(trace, true)).run();

        assertThat(config.pairs()).isEqualTo(SoakConfig.DEFAULT_QPS + 1);
        assertThat(result.passed()).as(result.summary() + problems).isTrue();
        assertThat(result.mismatches()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.failedPairs()).isZero();
        assertThat(result.ok() + result.expectedFailures()).isEqualTo(2_000);
        assertThat(trace.toString()).contains("opcode=UD SEND_ONLY ", "opcode=UD SEND_ONLY_WITH_IMMEDIATE ");
        Matcher m = UD_SUMMARY.matcher(problems.toString());
        assertThat(m.find()).as(problems.toString()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isGreaterThan(100);
        int lost = Integer.parseInt(m.group(2));
        assertThat(Integer.parseInt(m.group(1)) - lost).as("datagrams that arrived: ok operations of UD").isGreaterThan(100);
        // Only UD's losses are expected failures: no RC pair failed.
        assertThat((long) lost).isPositive().isEqualTo(result.expectedFailures());
        assertThat(problems.toString().lines()).singleElement();
    }

    @Test
    void underHarshFaultsUdLosesAndDuplicatesButNothingIsWrongAndTheRunReplays() throws Exception {
        SoakConfig harsh = withUd(33, 1_500).withFaults(0.2, 0.2, 0.1, 0.05);
        StringWriter problems = new StringWriter();
        SoakResult one = new SoakRun(harsh).diagnostics(new PrintWriter(problems, true)).run();
        SoakRun second = new SoakRun(harsh);
        SoakResult two = second.run();

        assertThat(one.mismatches()).as(problems.toString()).isZero();
        assertThat(one.lostCompletions()).isZero();
        assertThat(one.duplicatedCompletions()).isZero();
        Matcher m = UD_SUMMARY.matcher(problems.toString());
        assertThat(m.find()).isTrue();
        assertThat(Integer.parseInt(m.group(2))).as("datagrams lost").isPositive();
        assertThat(Integer.parseInt(m.group(3))).as("datagrams a duplicated packet delivered again").isPositive();
        assertThat(second.network().corrupted()).as("corrupted packets, which the ICRC must catch").isPositive();
        assertThat(two.summary()).isEqualTo(one.summary());
        assertThat(two.fingerprint()).isEqualTo(one.fingerprint());
    }

    @Test
    void aWrongByteInADatagramIsAMismatch() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(withUd(2, 600)).diagnostics(new PrintWriter(problems, true))
                .tamperWithUcOrUdResultOf(0).run();

        assertThat(result.mismatches()).isEqualTo(1);
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.passed()).isFalse();
        List<String> lines = problems.toString().lines().filter(l -> !UD_SUMMARY.matcher(l).find()).toList();
        assertThat(lines).singleElement().asString().startsWith("soak: op ")
                .contains("(QP pair " + SoakConfig.DEFAULT_QPS + " ").contains("UD receive completion")
                .contains(": byte ").contains(" of its buffer is 0x");
    }
}
