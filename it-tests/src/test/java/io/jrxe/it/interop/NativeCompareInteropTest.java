package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe compare -d rxe0 --scenario demo` in the lab's guest: the demo's nine steps on two jrxe NICs and on two QPs
 * of the kernel's rxe0 (through the native provider, with the host's JDK and jars over the 9p share) behave the
 * same, step by step. In a network namespace of its own, since the guest's rdma_rxe holds UDP port 4791 on every
 * address there is.
 */
@ExtendWith(LabExtension.class)
class NativeCompareInteropTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void theDemoStepsBehaveAlikeOnJrxeAndOnRxe0(Lab lab) throws Exception {
        long start = System.nanoTime();
        Job.Result compare = lab.guestNow("cd /tmp && unshare -n sh -c 'ip link set lo up; "
                + Lab.GUEST_JRXE + " compare -d rxe0 --scenario demo'", 480);
        System.out.printf("compare -d rxe0 --scenario demo in the guest: %.0f s%n", (System.nanoTime() - start) / 1e9);
        String out = compare.output();
        assertThat(compare.exitCode()).as("%s", compare).isZero();
        assertThat(out).as("%s", compare).contains("rxe0 (the kernel's, through libibverbs)", "Same behaviour in every step.")
                .doesNotContain("difference(s) in behaviour");
        assertThat(out.lines().filter(l -> l.startsWith("!"))).as("rows marked as differing: %s", compare).isEmpty();
        // The nine steps were all shown, the last one the deliberate mistake.
        for (int step = 1; step <= 9; step++) {
            assertThat(out).as("%s", compare).containsPattern("(?m)^" + step + "\\. ");
        }
        assertThat(out).as("%s", compare).containsPattern("(?m)^  on A +REM_ACCESS_ERR +REM_ACCESS_ERR");
    }
}
