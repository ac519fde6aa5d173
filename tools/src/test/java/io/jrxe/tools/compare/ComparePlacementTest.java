package io.jrxe.tools.compare;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.tools.compare.CompareReport.both;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe compare --scenario placement` with --self-test (two jrxe NICs against one NIC with both QPs, on loopback):
 * each ATOMIC_WRITE and FLUSH step ends as the IBTA and rxe say, alike on both setups; the scenario is named in
 * --help and in the refusal of an unknown one, and `all` leaves it out.
 */
class ComparePlacementTest {
    private static InProcess run;
    private static List<List<String>> steps;

    @BeforeAll
    static void runTheScenarioOnce() {
        run = InProcess.run("compare", "--self-test", "--scenario", "placement", "--addr-a", "127.0.8.31",
                "--addr-b", "127.0.8.32", "--addr-c", "127.0.8.33");
        steps = CompareReport.steps(run);
    }

    @Test
    void everyStepBehavesTheSameOnBothSetups() {
        assertThat(run.status()).as(run.toString()).isZero();
        assertThat(run.lines()).noneMatch(l -> l.startsWith("!"));
        assertThat(run.lines().getLast()).isEqualTo("Same behaviour in every step.");
        assertThat(steps).as(run.toString()).hasSize(PlacementSteps.all().size()).hasSize(10);
    }

    @Test
    void anAtomicWritePlacesExactlyItsEightBytes() {
        assertThat(step(1)).anyMatch(both("on A", "ATOMIC_WRITE SUCCESS len=\\d+"))
                .anyMatch(both("memory", "B\\+4096: word 0x0123456789abcdef, next 0xeeeeeeeeeeeeeeee"))
                .anyMatch(both("QP states", "A RTS, B RTS"))
                .anyMatch(both("packets", "A>B ATOMIC_WRITE psn\\+0 A len=8"))
                .anyMatch(both("", "B>A RDMA_READ_RESPONSE_ONLY psn\\+0 ACK credits=invalid msn=1"));
    }

    @Test
    void aFlushOfARangeOrOfTheWholeRegionCompletesAndMovesNoByte() {
        assertThat(step(2)).anyMatch(both("on A", "FLUSH SUCCESS len=\\d+"))
                .anyMatch(both("memory", "B\\+36864: 4096 x 0x11"))
                .anyMatch(both("packets", "A>B FLUSH psn\\+0 A"));
        assertThat(step(3)).anyMatch(both("on A", "FLUSH SUCCESS len=\\d+"))
                .anyMatch(both("QP states", "A RTS, B RTS"));
    }

    @Test
    void aWriteOrAnAtomicWriteChainedWithAFlushLandsAndBothComplete() {
        assertThat(step(4)).anyMatch(both("on A", "RDMA_WRITE SUCCESS len=32"))
                .anyMatch(both("", "FLUSH SUCCESS len=\\d+"))
                .anyMatch(both("memory", "B\\+40960: \"written, then flushed: in place.\""))
                .anyMatch(both("", "A>B FLUSH psn\\+1 A"));
        assertThat(step(5)).anyMatch(both("on A", "ATOMIC_WRITE SUCCESS len=\\d+"))
                .anyMatch(both("", "FLUSH SUCCESS len=\\d+"))
                .anyMatch(both("memory", "B\\+45056: word 0x0123456789abcdef, next 0xeeeeeeeeeeeeeeee"));
    }

    @Test
    void refusedPlacementsFailTheQpsAndLeaveMemoryAlone() {
        assertThat(step(6)).as("a region without FLUSH_GLOBAL").anyMatch(both("on A", "REM_ACCESS_ERR"))
                .anyMatch(both("", "B>A ACKNOWLEDGE psn\\+0 NAK remote access error msn=0"));
        assertThat(step(7)).as("a QP without FLUSH_GLOBAL in its access flags").anyMatch(both("on A", "REM_INV_REQ_ERR"))
                .anyMatch(both("QP states", "A ERR, B ERR"));
        assertThat(step(8)).as("a misaligned ATOMIC_WRITE").anyMatch(both("on A", "REM_INV_REQ_ERR"))
                .anyMatch(both("memory", "B\\+4096: 16 x 0xee"))
                .anyMatch(both("", "B>A ACKNOWLEDGE psn\\+0 NAK invalid request msn=0"));
        assertThat(step(9)).as("an ATOMIC_WRITE without REMOTE_WRITE").anyMatch(both("on A", "REM_ACCESS_ERR"))
                .anyMatch(both("memory", "B\\+32768: 16 x 0xee"));
    }

    @Test
    void jrxeRegistersOrdinaryMemoryForPersistentFlushes() {
        assertThat(step(10)).anyMatch(both("memory", "reg_mr registered it"))
                .anyMatch(both("on A", "-"));
    }

    @Test
    void helpNamesTheScenarioAndSaysAllLeavesItOut() {
        InProcess help = InProcess.run("compare", "--help");
        String text = String.join(" ", help.out().lines().map(String::strip).toList());
        assertThat(text).contains("placement (IBTA 1.5 ATOMIC_WRITE and FLUSH")
                .contains("all (demo, errors and perf; not placement or odp, which kernels before 6.2 and 6.17 lack");
        BadOptionAnswer.check(InProcess.run("compare", "--scenario", "placment"), "compare", "--scenario",
                "placement");
    }

    private static List<String> step(int number) {
        assertThat(steps).as(run.toString()).hasSizeGreaterThanOrEqualTo(number);
        return steps.get(number - 1);
    }
}
