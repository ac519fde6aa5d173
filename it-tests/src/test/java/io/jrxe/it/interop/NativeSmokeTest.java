package io.jrxe.it.interop;

import io.jrxe.verbs.nativ.NativeHost;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The smoke program where there is no device (here and in CI): it says why in its first step
 * and exits 2. Against rxe0 it runs in the lab guest.
 */
class NativeSmokeTest {
    @Test
    void withoutADeviceTheFirstStepFailsWithTheReasonAndTheExitStatusIs2() {
        NativeHost.assumeLibibverbs();
        Assumptions.assumeFalse(NativeHost.kernelHasDevices(), "this machine has RDMA devices");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status = new NativeSmoke("rxe0", new PrintStream(bytes, true, StandardCharsets.UTF_8)).run();
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(status).isEqualTo(2);
        assertThat(out).startsWith("FAIL find native device rxe0: no RDMA devices: the kernel has no RDMA support")
                .endsWith("steps: 0 ok, 1 failed\n");
    }

    @Test
    void aStepThatThrowsIsAFailWithItsMessageAndTheOthersStillRun() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        SmokeReport report = new SmokeReport(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        assertThat(report.step("one", () -> "fine")).isEqualTo("fine");
        assertThat(report.step("two", () -> {
            SmokeReport.expect(false, "wrong value 3");
            return "unreached";
        })).isNull();
        report.step("three", () -> 3);
        report.summary();
        assertThat(bytes.toString(StandardCharsets.UTF_8))
                .isEqualTo("OK   one: fine\nFAIL two: wrong value 3\nOK   three\nsteps: 2 ok, 1 failed\n");
        assertThat(report.failed()).isEqualTo(1);
    }
}
