package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The native provider's error paths on the guest's rxe0, many times in one JVM whose heap is verified before and
 * after every GC ({@link NativeErrorPaths}): completions in error, QPs in the error state, destroyed with work
 * outstanding or after their peer is gone, CQs destroyed after them. Memory the provider corrupted would show as a
 * failed verification or a JVM crash (whose hs_err file the test prints). It rules the native provider out as the
 * cause of JVM crashes in the guest (docs/lab.md: those come from qemu's multi-threaded TCG).
 */
@ExtendWith(LabExtension.class)
class NativeErrorPathsInteropTest {
    private static final int ROUNDS = 20;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void everyErrorPathOfRxe0ManyTimesWithTheHeapVerified(Lab lab) throws Exception {
        long start = System.nanoTime();
        Job.Result r = lab.guestNow("cd /opt/jrxe && rm -f /tmp/hs_err_errpaths_*.log; " + Lab.GUEST_JAVA
                + " -XX:+UnlockDiagnosticVMOptions -XX:+VerifyBeforeGC -XX:+VerifyAfterGC "
                + "-XX:ErrorFile=/tmp/hs_err_errpaths_%p.log " + Lab.GUEST_TEST_CLASSPATH + " "
                + NativeErrorPaths.class.getName() + " rxe0 " + lab.guestGid4() + " " + ROUNDS
                + "; rc=$?; cat /tmp/hs_err_errpaths_*.log 2>/dev/null | head -120; exit $rc", 420);
        System.out.printf("native error paths, %d rounds in the guest: %.0f s%n", ROUNDS, (System.nanoTime() - start) / 1e9);
        assertThat(r.exitCode()).as("%s", r).isZero();
        String done = r.output().lines().filter(l -> l.startsWith("DONE")).findFirst().orElse("");
        assertThat(done).as("%s", r).contains("A0:REM_ACCESS_ERR=" + ROUNDS, "A1:REM_ACCESS_ERR=" + ROUNDS,
                "A3:RNR_RETRY_EXC_ERR=" + ROUNDS, "A4:RETRY_EXC_ERR=" + ROUNDS);
        // A SEND longer than its receive: REM_OP_ERR on Linux 6.1's rxe, REM_INV_REQ_ERR where rxe follows IBTA.
        assertThat(done).as("%s", r).containsPattern("A2:REM_(OP|INV_REQ)_ERR=" + ROUNDS + "\\b")
                .containsPattern("B2:LOC_(QP_OP|LEN)_ERR=" + ROUNDS + "\\b");
        assertThat(r.output()).as("%s", r).doesNotContain("A fatal error has been detected");
    }
}
