package io.jrxe.tools.perftest;

import io.jrxe.tools.perftest.PerftestPair.Run;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.jrxe.tools.perftest.PerftestPair.bwRowsPositive;
import static io.jrxe.tools.perftest.PerftestPair.rows;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A thousand RC QPs between two processes on real UDP, as a new user tries many QPs: every QP's writes
 * complete (no retry counter exhausted), however slowly the machine lets the peer answer. The device's
 * in-flight cap keeps the peer's queue shorter than the ACK timeout and wakes waiting QPs a turn at a
 * time; a thousand QPs that all sent at once, or were all woken for each ACK, timed out together.
 */
class ManyQpsProcessTest {
    @Test
    void aThousandQpsWriteBetweenTwoProcessesAndEveryWriteCompletes() throws Exception {
        Run r = PerftestPair.runWithNotices("write-bw", 19475, "-q", "1000", "-n", "10", "-s", "4096", "--counters",
                "--qp-spread");
        List<String> c = rows(r.client(), "RDMA_Write BW Test", true, "WRITE");
        assertThat(c).hasSize(2);
        bwRowsPositive(c.subList(0, 1), 4096, 10_000);
        // How even the QPs were is printed, not asserted: on a loaded machine the spread says more about the
        // scheduler than about jrxe.
        assertThat(c.getLast()).matches(" per QP \\(1000 QPs, MiB/sec\\): slowest \\S+, median \\S+, fastest \\S+; "
                + "slowest/median \\d\\.\\d\\d");
        String counters = String.join("\n", r.client()) + r.clientErr();
        assertThat(counters).contains("counters of").doesNotContain("retry_exceeded_err");
    }

    /**
     * send_bw for a duration with a thousand QPs: the client has up to 128,000 sends in flight when the server's
     * time is up, more than its receive CQ holds (max_cqe). The server polls them away while it waits for the
     * client; left there, they overflowed the CQ, took every server QP to ERR and ended the client with
     * RETRY_EXC_ERR.
     */
    @Test
    void aThousandQpsSendForADurationAndTheServersCqKeepsUp() throws Exception {
        // Both sides must end with status 0: with the CQ overflowed the client failed with RETRY_EXC_ERR.
        Run r = PerftestPair.runWithNotices("send-bw", 19476, "-q", "1000", "-D", "1", "-s", "4096", "--counters");
        List<String> c = rows(r.client(), "Send BW Test", true, "SEND");
        assertThat(c).hasSize(1);
        String client = String.join("\n", r.client()) + r.clientErr();
        assertThat(client).contains("counters of").doesNotContain("retry_exceeded_err");
    }
}
