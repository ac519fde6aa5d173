package io.jrxe.tools.soak;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --with srq}: every RC QP of a NIC takes its receives from the NIC's shared receive queue, which the soak
 * keeps filled; each receive completion must still be of the right message, byte for byte.
 */
class SrqTest {
    private static final Pattern SRQ_SUMMARY = Pattern.compile("soak: SRQ: (\\d+) messages received through");

    private static SoakConfig withSrq(long seed, int ops) {
        return SoakConfig.defaults(seed).withOps(ops).with(List.of("srq"));
    }

    private static int received(String problems) {
        Matcher m = SRQ_SUMMARY.matcher(problems);
        assertThat(m.find()).as(problems).isTrue();
        return Integer.parseInt(m.group(1));
    }

    @Test
    void everyReceiveComesFromTheSharedQueuesAndEachMatchesItsMessage() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(withSrq(4, 3_000)).diagnostics(new PrintWriter(problems, true)).run();

        assertThat(result.passed()).as(result.summary() + problems).isTrue();
        assertThat(result.mismatches()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.ok()).isEqualTo(3_000);
        // SEND, SEND_WITH_IMM and WRITE_WITH_IMM take a receive: 3 kinds of 7.
        assertThat(received(problems.toString())).isGreaterThan(1_000);
        assertThat(problems.toString().lines()).singleElement();
    }

    @Test
    void underHarshFaultsNothingIsWrongLostOrDuplicatedAndAFailedPairsReceivesEndAsExpectedFailures() throws Exception {
        StringWriter problems = new StringWriter();
        // Seed 33 under these faults: two pairs run out of retries, with messages on their way into the SRQs.
        SoakResult result = new SoakRun(withSrq(33, 1_500).withFaults(0.2, 0.2, 0.1, 0.05))
                .diagnostics(new PrintWriter(problems, true)).run();

        assertThat(result.mismatches()).as(problems.toString()).isZero();
        assertThat(result.lostCompletions()).as(problems.toString()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.passed()).isTrue();
        assertThat(result.failedPairs()).isPositive();
        assertThat(result.ok() + result.expectedFailures()).isEqualTo(1_500);
        assertThat(received(problems.toString())).isGreaterThan(300);
    }

    @Test
    void aWrongByteInAnSrqReceivesBufferIsAMismatch() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(withSrq(4, 600)).diagnostics(new PrintWriter(problems, true))
                .tamperWithResultOf(0, op -> op.kind.isSend() && op.lane.receivesFromSrq()).run();

        assertThat(result.mismatches()).isEqualTo(1);
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.passed()).isFalse();
        List<String> lines = problems.toString().lines().filter(l -> !SRQ_SUMMARY.matcher(l).find()).toList();
        assertThat(lines).singleElement().asString().startsWith("soak: op ").contains(" SEND")
                .contains("of the SRQ receive's buffer on ").contains(", expected 0x");
    }
}
