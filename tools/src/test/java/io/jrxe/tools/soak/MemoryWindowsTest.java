package io.jrxe.tools.soak;

import org.junit.jupiter.api.Test;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WorkCompletion;
import io.jrxe.verbs.spi.WorkCompletionFiller;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --with mw}: RDMA WRITEs and READs through type 2 memory windows, bound and invalidated (locally and by the
 * peer's SEND_WITH_INV) as the run goes; every access is through a valid window and must succeed, byte for byte.
 */
class MemoryWindowsTest {
    private static final Pattern MW_SUMMARY = Pattern.compile(
            "soak: MW: (\\d+) RDMA WRITEs and READs through a window's R_Key, (\\d+) binds, (\\d+) local and (\\d+) remote");

    private static SoakConfig withMw(long seed, int ops) {
        return SoakConfig.defaults(seed).withOps(ops).with(List.of("mw"));
    }

    private static int[] counts(String problems) {
        Matcher m = MW_SUMMARY.matcher(problems);
        assertThat(m.find()).as(problems).isTrue();
        return new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                          Integer.parseInt(m.group(4))};
    }

    /** Without faults: with them, see {@link #underHarshFaultsNothingIsWrongLostOrDuplicated}. */
    @Test
    void windowsAreBoundUsedAndInvalidatedAndEveryAccessThroughOneChecksOut() throws Exception {
        StringWriter problems = new StringWriter();
        StringWriter trace = new StringWriter();
        SoakResult result = new SoakRun(withMw(5, 3_000).withFaults(0, 0, 0, 0)).diagnostics(new PrintWriter(problems, true))
                .trace(new PrintWriter(trace, true)).run();

        assertThat(result.passed()).as(result.summary() + problems).isTrue();
        assertThat(result.mismatches()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.ok()).isEqualTo(3_000);
        int[] c = counts(problems.toString());
        assertThat(c[0]).as("accesses through a window").isGreaterThan(50);
        assertThat(c[1]).as("binds").isGreaterThan(10);
        assertThat(c[2]).as("local invalidations").isPositive();
        assertThat(c[3]).as("remote invalidations").isPositive();
        assertThat(trace.toString()).contains("opcode=RC SEND_ONLY_WITH_INVALIDATE ");
        assertThat(problems.toString().lines()).singleElement();
    }

    @Test
    void underHarshFaultsNothingIsWrongLostOrDuplicated() throws Exception {
        // Under these faults a go-back-N rewind reaches back past a BIND_MW or LOCAL_INV that already ran, which
        // must not run again (RetransmissionTest.aRewindStepsOverALocalOperationThatAlreadyRan).
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(withMw(33, 1_500).withFaults(0.2, 0.2, 0.1, 0.05))
                .diagnostics(new PrintWriter(problems, true)).run();

        assertThat(result.mismatches()).as(problems.toString()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.duplicatedCompletions()).isZero();
        assertThat(result.passed()).isTrue();
        assertThat(result.ok() + result.expectedFailures()).isEqualTo(1_500);
        assertThat(counts(problems.toString())[0]).isGreaterThan(50);
    }

    @Test
    void aWrongByteWrittenOrReadThroughAWindowIsAMismatch() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(withMw(5, 600).withFaults(0, 0, 0, 0)).diagnostics(new PrintWriter(problems, true))
                .tamperWithResultOf(0, op -> op.window != null && !op.kind.isSend()).run();

        assertThat(result.mismatches()).isEqualTo(1);
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.passed()).isFalse();
        List<String> lines = problems.toString().lines().filter(l -> !MW_SUMMARY.matcher(l).find()).toList();
        assertThat(lines).singleElement().asString().startsWith("soak: op ").containsPattern("MW_(WRITE|READ) of")
                .contains(" is 0x").contains(", expected 0x");
    }

    /** The receive check of a SEND_WITH_INV, given completions a NIC might write: only the right key passes. */
    @Test
    void aSendWithInvalidateIsCheckedForTheKeyItsReceiveSaysWasInvalidated() {
        Operation op = new Operation(7, null, OperationKind.MW_INVALIDATE);
        op.length = 100;
        op.windowKey = 0x1234_5601;
        WorkCompletion right = WorkCompletionFiller.fill(new WorkCompletion(), op.recvWrId(), WcStatus.SUCCESS,
                WcOpcode.RECV, 0, 100, op.windowKey, 0x11, 0, WorkCompletion.WITH_INV, 0);
        WorkCompletion otherKey = WorkCompletionFiller.fill(new WorkCompletion(), op.recvWrId(), WcStatus.SUCCESS,
                WcOpcode.RECV, 0, 100, 0x1234_5600, 0x11, 0, WorkCompletion.WITH_INV, 0);
        WorkCompletion noInvalidate = WorkCompletionFiller.fill(new WorkCompletion(), op.recvWrId(), WcStatus.SUCCESS,
                WcOpcode.RECV, 0, 100, 0, 0x11, 0, 0, 0);

        assertThat(op.receiveProblem(right, 0)).isNull();
        assertThat(op.receiveProblem(otherKey, 0)).contains("invalidating 0x12345601");
        assertThat(op.receiveProblem(noInvalidate, 0)).contains("invalidating 0x12345601");
        // A plain SEND's receive must not claim an invalidation.
        Operation send = new Operation(8, null, OperationKind.SEND);
        send.length = 100;
        assertThat(send.receiveProblem(right, 0)).isNotNull();
    }
}
