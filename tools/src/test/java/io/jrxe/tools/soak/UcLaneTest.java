package io.jrxe.tools.soak;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --with uc}: one more QP pair, of UC, whose messages the faulty network may lose (expected failures),
 * deliver twice or write in part, but whose checker still catches a wrong byte.
 */
class UcLaneTest {
    private static final Pattern UC_SUMMARY = Pattern.compile(
            "soak: UC: (\\d+) operations, (\\d+) of them lost on the way \\(expected failures\\), (\\d+) messages delivered twice");

    private static SoakConfig withUc(long seed, int ops) {
        return SoakConfig.defaults(seed).withOps(ops).with(List.of("uc"));
    }

    @Test
    void theUcPairCarriesEveryUcMessageLosesSomeAndNothingIsWrong() throws Exception {
        StringWriter problems = new StringWriter();
        StringWriter trace = new StringWriter();
        SoakConfig config = withUc(2, 2_000);
        SoakResult result = new SoakRun(config).diagnostics(new PrintWriter(problems, true))
                .trace(new PrintWriter(trace, true)).run();

        assertThat(config.pairs()).isEqualTo(SoakConfig.DEFAULT_QPS + 1);
        assertThat(result.passed()).as(result.summary() + problems).isTrue();
        assertThat(result.failedPairs()).isZero();
        assertThat(result.ok() + result.expectedFailures()).isEqualTo(2_000);
        assertThat(trace.toString()).contains("opcode=UC SEND_ONLY ", "opcode=UC SEND_FIRST ",
                "opcode=UC SEND_LAST_WITH_IMMEDIATE ", "opcode=UC RDMA_WRITE_MIDDLE ", "opcode=UC RDMA_WRITE_ONLY ",
                "opcode=UC RDMA_WRITE_LAST_WITH_IMMEDIATE ");
        Matcher m = UC_SUMMARY.matcher(problems.toString());
        assertThat(m.find()).as(problems.toString()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).isGreaterThan(100);
        // Under 5% loss some messages of several packets are lost: only they, no RC pair failed.
        assertThat(Long.parseLong(m.group(2))).isPositive().isEqualTo(result.expectedFailures());
        assertThat(problems.toString().lines()).singleElement();
    }

    @Test
    void underHarshFaultsUcLosesMuchButNothingIsWrongAndTheRunReplays() throws Exception {
        SoakConfig harsh = withUc(33, 1_500).withFaults(0.2, 0.2, 0.1, 0.05);
        StringWriter problems = new StringWriter();
        SoakRun first = new SoakRun(harsh).diagnostics(new PrintWriter(problems, true));
        SoakResult one = first.run();
        SoakResult two = new SoakRun(harsh).run();

        assertThat(one.mismatches()).isZero();
        assertThat(one.lostCompletions()).isZero();
        assertThat(one.duplicatedCompletions()).isZero();
        assertThat(one.passed()).isTrue();
        Matcher m = UC_SUMMARY.matcher(problems.toString());
        assertThat(m.find()).isTrue();
        assertThat(Integer.parseInt(m.group(3))).as("messages a duplicated packet delivered again").isPositive();
        assertThat(two.summary()).isEqualTo(one.summary());
        assertThat(two.fingerprint()).isEqualTo(one.fingerprint());
    }

    @Test
    void aWrongByteInAUcSendsReceiveBufferIsAMismatch() throws Exception {
        assertThat(tampered(0)).contains("UC receive completion").contains(": byte ").contains(" of its buffer is 0x");
    }

    @Test
    void aWrongByteInAUcWritesTargetIsAMismatch() throws Exception {
        assertThat(tampered(WRITE_FROM)).contains("of the UC WRITE's target on ").contains(", expected 0x");
    }

    /** With seed 2 the first UC operation is op 11, a SEND; the next is op 22, a WRITE. */
    private static final long WRITE_FROM = 12;

    /** The one problem line of a run in which the first UC result from {@code opId} on had a bit flipped. */
    private static String tampered(long opId) throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(withUc(2, 600)).diagnostics(new PrintWriter(problems, true))
                .tamperWithUcOrUdResultOf(opId).run();
        assertThat(result.mismatches()).isEqualTo(1);
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.passed()).isFalse();
        List<String> lines = problems.toString().lines().filter(l -> !UC_SUMMARY.matcher(l).find()).toList();
        assertThat(lines).singleElement().asString().startsWith("soak: op ").contains("(QP pair " + SoakConfig.DEFAULT_QPS + " ");
        return lines.getFirst();
    }
}
