package io.jrxe.tools.soak;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Under harsh faults a QP pair may run out of retries, as RC must: the soak reports it apart from what would be
 * a NIC bug (wrong bytes, lost or duplicated completions), which it must still catch, on live and failed pairs.
 */
class FailedPairTest {
    /** Seed 39 under these faults: QP pair 3 runs out of retries at op 789, the other three live on. */
    private static final SoakConfig HARSH = SoakConfig.defaults(39).withOps(1_500).withFaults(0.2, 0.2, 0.1, 0.05);
    private static final int FAILED_PAIR = 3;
    private static final long FAILING_OP = 789;
    private static final Pattern PAIR_FAILED = Pattern.compile("^soak: QP pair (\\d+) failed \\(op (\\d+) .*RETRY_EXC_ERR");
    private static final Pattern OP_PROBLEM = Pattern.compile("^soak: op \\d+ \\(QP pair (\\d+) ");

    @Test
    void aPairThatRunsOutOfRetriesIsReportedApartAndTheRunPasses() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(HARSH).diagnostics(new PrintWriter(problems, true)).run();
        System.out.println("harsh soak: " + result.summary());

        assertOneFailedPairAnd(result, 0, 0);
        assertThat(result.expectedFailures()).isPositive();
        assertThat(result.ok() + result.expectedFailures()).isEqualTo(HARSH.ops());
        assertThat(result.stoppedBecause()).isNull();
        assertThat(problems.toString().lines()).singleElement().asString().containsPattern(PAIR_FAILED)
                .contains("QP pair " + FAILED_PAIR + " failed (op " + FAILING_OP + " ");
        // The soak stopped feeding the pair: what failed is what was outstanding on it, a window each way at most.
        assertThat(result.expectedFailures()).isLessThanOrEqualTo(2 * SoakRun.WINDOW);
    }

    /** One pair failed, nothing was lost, and these many mismatches and duplicated completions were found. */
    private static void assertOneFailedPairAnd(SoakResult result, long mismatches, long duplicated) {
        assertThat(result.failedPairs()).isEqualTo(1);
        assertThat(result.mismatches()).isEqualTo(mismatches);
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isEqualTo(duplicated);
        assertThat(result.passed()).isEqualTo(mismatches == 0 && duplicated == 0);
    }

    @Test
    void aRunWithAFailedPairReplaysExactly() throws Exception {
        SoakRun first = new SoakRun(HARSH);
        SoakResult one = first.run();
        SoakRun second = new SoakRun(HARSH);
        SoakResult two = second.run();

        assertThat(one.failedPairs()).isEqualTo(1);
        assertThat(two.summary()).isEqualTo(one.summary());
        assertThat(two.fingerprint()).isEqualTo(one.fingerprint());
        assertThat(two.virtualNanos()).isEqualTo(one.virtualNanos());
    }

    @Test
    void aWrongResultOnALivePairIsStillAMismatch() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(HARSH).diagnostics(new PrintWriter(problems, true))
                .tamperWithResultOf(1_400)
                .run();

        assertOneFailedPairAnd(result, 1, 0);
        List<String> opProblems = problems.toString().lines().filter(OP_PROBLEM.asPredicate()).toList();
        assertThat(opProblems).singleElement().asString().contains("is 0x").contains(", expected 0x");
        Matcher m = OP_PROBLEM.matcher(opProblems.getFirst());
        assertThat(m.find()).isTrue();
        assertThat(Integer.parseInt(m.group(1))).as("the tampered operation's pair").isNotEqualTo(FAILED_PAIR);
    }

    @Test
    void aWrongByteOnAFailedPairOutsideWhatItsFailedOperationsTouchedIsStillAMismatch() throws Exception {
        StringWriter problems = new StringWriter();
        List<String> tampered = new ArrayList<>();
        SoakResult result = new SoakRun(HARSH).diagnostics(new PrintWriter(problems, true))
                .beforeSweep(model -> tampered.add(flipAByteOfAKnownSlotOfTheFailedPair(model)))
                .run();

        assertOneFailedPairAnd(result, 1, 0);
        assertThat(tampered).singleElement().asString().startsWith("slot ");
        assertThat(problems.toString().lines().filter(l -> l.startsWith("soak: after the run")))
                .singleElement().asString()
                .startsWith("soak: after the run, byte 0 of " + tampered.getFirst() + " is 0x")
                .contains(", expected 0x");
    }

    /**
     * Of the failed pair, a NIC whose area has indeterminate slots (those its failed operations were writing):
     * the first slot that is not one of them gets a byte flipped. Says which ("slot S of QP pair P on N").
     */
    private static String flipAByteOfAKnownSlotOfTheFailedPair(SoakModel model) {
        Lane failed = model.lanes.stream().filter(l -> l.failed).findFirst().orElseThrow();
        assertThat(failed.index).isEqualTo(FAILED_PAIR);
        for (SoakNic nic : List.of(failed.from, failed.to)) {
            SlotArea area = nic.areas[failed.index];
            if (area.indeterminateSlots.isEmpty()) {
                continue;
            }
            int slot = area.indeterminateSlots.nextClearBit(0);
            assertThat(slot).isLessThan(area.slots);
            long at = area.slot(slot);
            nic.memory.set(ValueLayout.JAVA_BYTE, at, (byte) ~nic.memory.get(ValueLayout.JAVA_BYTE, at));
            return "slot " + slot + " of QP pair " + failed.index + " on " + nic;
        }
        throw new AssertionError("the failed pair's operations left no slot indeterminate");
    }

    @Test
    void aSecondCompletionOfAWorkRequestIsCaughtOnALivePair() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(SoakConfig.defaults(7).withOps(1_000))
                .diagnostics(new PrintWriter(problems, true))
                .duplicateSendCompletionOf(500)
                .run();

        assertThat(result.duplicatedCompletions()).isEqualTo(1);
        assertThat(result.ok()).isEqualTo(1_000);
        assertThat(result.mismatches()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.failedPairs()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(problems.toString().lines()).singleElement().asString()
                .startsWith("soak: a second completion of the same work request, on ").contains("wr_id=500 ");
    }

    @Test
    void aSecondCompletionOfAFailedOperationIsCaughtToo() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(HARSH).diagnostics(new PrintWriter(problems, true))
                .duplicateSendCompletionOf(FAILING_OP)
                .run();

        assertOneFailedPairAnd(result, 0, 1);
        assertThat(problems.toString()).contains("soak: a second completion of the same work request, on ")
                .contains("wr_id=" + FAILING_OP + " status=RETRY_EXC_ERR");
    }

    @Test
    void whenEveryPairFailsTheRunSaysSoAndDoesNotPass() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(SoakConfig.defaults(1).withOps(200).withFaults(1, 0, 0, 0))
                .diagnostics(new PrintWriter(problems, true))
                .run();

        assertThat(result.stoppedBecause()).isEqualTo(SoakResult.NO_PAIR_SURVIVED);
        assertThat(result.failedPairs()).isEqualTo(SoakConfig.DEFAULT_QPS);
        assertThat(result.ok()).isZero();
        assertThat(result.expectedFailures()).isPositive().isLessThan(200);
        assertThat(result.mismatches()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.passed()).isFalse();
        TreeSet<Integer> pairs = new TreeSet<>();
        problems.toString().lines().map(PAIR_FAILED::matcher).filter(Matcher::find)
                .forEach(m -> pairs.add(Integer.parseInt(m.group(1))));
        assertThat(pairs).containsExactly(0, 1, 2, 3);
        assertThat(problems.toString()).contains("soak: stopped: no pair survived: the faults are too harsh to test anything");
    }
}
