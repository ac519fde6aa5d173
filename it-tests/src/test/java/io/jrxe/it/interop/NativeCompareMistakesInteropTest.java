package io.jrxe.it.interop;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe compare -d rxe0 --scenario mistakes` in the lab's guest: the mistakes of `jrxe mistakes` that a kernel
 * device allows (memory not registered, a wrong rkey, an unaligned buffer, too many SGEs, no receive posted, an lkey
 * used after deregistration) end the same way on two jrxe NICs and on two QPs of the kernel's rxe0, but for the one
 * difference docs/differences.md lists. In a network namespace of its own, as NativeCompareInteropTest, since the
 * guest's rdma_rxe holds UDP port 4791.
 */
@ExtendWith(LabExtension.class)
class NativeCompareMistakesInteropTest {
    @Test
    @Timeout(value = 12, unit = TimeUnit.MINUTES)
    void theMistakesEndAlikeOnJrxeAndOnRxe0(Lab lab) throws Exception {
        long start = System.nanoTime();
        Job.Result compare = lab.guestNow("cd /tmp && unshare -n sh -c 'ip link set lo up; "
                + Lab.GUEST_JRXE + " compare -d rxe0 --scenario mistakes'", 600);
        System.out.printf("compare -d rxe0 --scenario mistakes in the guest: %.0f s%n", (System.nanoTime() - start) / 1e9);
        String out = compare.output();
        // One difference, documented in differences.md: an lkey whose MR was deregistered is LOC_PROT_ERR on jrxe
        // (IBTA's local protection error), LOC_QP_OP_ERR on Linux 6.1's rxe.
        assertThat(compare.exitCode()).as("%s", compare).isEqualTo(1);
        assertThat(out).as("%s", compare).contains("rxe0 (the kernel's, through libibverbs)", "  dereg-then-use: on A");
        // Under TCG on a loaded host a response can take longer than the steps' 1.07 s ACK timeout, and jrxe's side
        // then retransmits once (completer_retry_err +1, one more packet each way): a difference of timing that shows
        // in the counters of a step that sends packets. Any other difference is a failure (the steps that send
        // nothing must move the same counters: a counter moved for a local error that rxe's does not count, as
        // send_err, shows there).
        List<String> differences = out.lines().dropWhile(l -> !l.contains("difference(s) in behaviour")).skip(1)
                .map(String::strip).filter(l -> !l.isEmpty()).toList();
        assertThat(differences).as("%s", compare).allMatch(d -> d.equals("dereg-then-use: on A")
                || List.of("wrong-rkey: counters", "unaligned: counters", "rnr: counters").contains(d));
        assertThat(out).as("%s", compare).containsPattern("(?m)^! on A +LOC_PROT_ERR +LOC_QP_OP_ERR");
        for (int step = 1; step <= 6; step++) {
            assertThat(out).as("%s", compare).containsPattern("(?m)^" + step + "\\. ");
        }
        // Each mistake's outcome, the same in both columns: the kernel refused or failed them as jrxe did.
        assertThat(out).as("%s", compare)
                .containsPattern("(?m)^  on A +LOC_PROT_ERR +LOC_PROT_ERR")
                .containsPattern("(?m)^  on A +REM_ACCESS_ERR +REM_ACCESS_ERR")
                .containsPattern("(?m)^  on A +RDMA_WRITE SUCCESS len=8192 +RDMA_WRITE SUCCESS len=8192")
                .containsPattern("(?m)^  memory +post_send refused: EINVAL +post_send refused: EINVAL")
                .containsPattern("(?m)^  on A +RNR_RETRY_EXC_ERR +RNR_RETRY_EXC_ERR");
    }
}
