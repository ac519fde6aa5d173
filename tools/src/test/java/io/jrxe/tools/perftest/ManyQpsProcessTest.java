package io.jrxe.tools.perftest;

import io.jrxe.tools.perftest.PerftestPair.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
     * A hundred paced QPs. Under DCQCN (every QP paced, at the line rate too), a pacer that kept only one packet's
     * time per late wake sent two packets per wake of the event loop (tens of microseconds), the wakes of a hundred
     * QPs crowded the loop, and ACKs came after their QPs' timeouts (3,297 in this run). Under TIMELY (rates cut by
     * loopback's queueing), a QP held by its pacer after packets that asked for no ACK found the window full when it
     * woke, and waited in its queue for its ACK timer, as nothing else would acknowledge them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"dcqcn", "timely"})
    void aHundredPacedQpsWriteWithoutResending(String cc) throws Exception {
        Run r = PerftestPair.runWithNotices("write-bw", cc.equals("dcqcn") ? 19477 : 19478, "-q", "100", "-n", "50",
                "-s", "4096", "--cc", cc, "--counters");
        List<String> c = rows(r.client(), "RDMA_Write BW Test", true, "WRITE");
        bwRowsPositive(c, 4096, 5_000);
        String counters = r.clientErr().lines().filter(l -> l.startsWith("counters of")).findFirst()
                .orElseThrow(() -> new AssertionError("no counters on the client's stderr: " + r.clientErr()));
        assertThat(counters).doesNotContain("retry_exceeded_err");
        Matcher resent = Pattern.compile("completer_retry_err=(\\d+)").matcher(counters);
        long resends = resent.find() ? Long.parseLong(resent.group(1)) : 0;
        assertThat(resends).as("ACK timeouts in 20,000 packets: %s", counters).isLessThan(200);
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
