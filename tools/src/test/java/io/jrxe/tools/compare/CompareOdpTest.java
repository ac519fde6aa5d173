package io.jrxe.tools.compare;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.tools.compare.CompareReport.both;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe compare --scenario odp` with --self-test (two jrxe NICs against one NIC with both QPs, on loopback): every
 * access kind faults the fresh on-demand page in once, the bytes land, a prefetch leaves no fault to take, and an
 * invalidation makes the next WRITE fault again; alike on both setups.
 */
class CompareOdpTest {
    private static InProcess run;
    private static List<List<String>> steps;

    @BeforeAll
    static void runTheScenarioOnce() {
        run = InProcess.run("compare", "--self-test", "--scenario", "odp", "--addr-a", "127.0.8.41",
                "--addr-b", "127.0.8.42", "--addr-c", "127.0.8.43");
        steps = CompareReport.steps(run);
    }

    @Test
    void everyStepBehavesTheSameOnBothSetups() {
        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.lines()).noneMatch(l -> l.startsWith("!")).noneMatch(l -> l.contains("failed"));
        assertThat(run.lines().getLast()).isEqualTo("Same behaviour in every step.");
        assertThat(steps).as(run.toString()).hasSize(OdpSteps.all().size()).hasSize(7);
    }

    @Test
    void eachKindOfAccessFaultsItsFreshPageInOnce() {
        for (int step = 1; step <= 5; step++) {
            assertThat(step(step)).as("step %d", step).anyMatch(both("counters", "jrxe_odp_fault_nanos \\+5000"))
                    .anyMatch(both("", "jrxe_odp_page_faults \\+1"))
                    .anyMatch(both("QP states", "A RTS, B RTS"));
        }
        assertThat(step(1)).anyMatch(both("on A", "RDMA_WRITE SUCCESS len=1024"));
        assertThat(step(2)).anyMatch(both("on A", "RDMA_READ SUCCESS len=1024"));
        assertThat(step(4)).anyMatch(both("on B", "RECV SUCCESS len=1024"));
        assertThat(step(5)).anyMatch(both("memory", "B's word 42, A got 40"));
    }

    @Test
    void aPrefetchLeavesNoFaultAndAnInvalidationMakesOneAgain() {
        assertThat(step(6)).anyMatch(both("memory", "prefetched; B\\(odp\\)\\+8192: 1024 bytes, crc32 [0-9a-f]{8}"))
                .anyMatch(both("counters", "jrxe_odp_fault_nanos \\+15000"))
                .anyMatch(both("", "jrxe_odp_prefetched_pages \\+3"))
                .noneMatch(l -> l.contains("jrxe_odp_page_faults"));
        assertThat(step(7)).anyMatch(both("", "jrxe_odp_invalidations \\+1"))
                .anyMatch(both("", "jrxe_odp_page_faults \\+2"));
    }

    @Test
    void helpNamesTheScenario() {
        InProcess help = InProcess.run("compare", "--help");
        String text = String.join(" ", help.out().lines().map(String::strip).toList());
        assertThat(text).contains("odp (on-demand memory: first touch by every kind of access, prefetch, invalidation)");
    }

    private static List<String> step(int number) {
        assertThat(steps).as(run.toString()).hasSizeGreaterThanOrEqualTo(number);
        return steps.get(number - 1);
    }
}
