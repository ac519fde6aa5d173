package io.jrxe.tools.rdmacm;

import io.jrxe.tools.common.ChildJrxe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe cm-churn` between two processes: every one of 500 connections through the connection manager is made and
 * ended in turn, and both processes stay flat (their heap, threads and open files at the last checkpoint near the
 * first's).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CmChurnProcessTest {
    private static final int LIMIT_SECONDS = 120;

    @Test
    void fiveHundredConnectionsAreMadeAndEndedAndNeitherSideGrows() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("cm-churn", "-b", "127.0.79.1", "-p", "7473", "--cycles", "500")) {
            server.awaitLine(l -> l.startsWith("cm churn server: listening on 127.0.79.1 port 7473"), LIMIT_SECONDS);
            try (ChildJrxe client = ChildJrxe.start("cm-churn", "-s", "127.0.79.1", "-p", "7473", "--cycles", "500")) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stdoutLines() + client.stderr()).isZero();
                checkpointsAndVerdict(client.stdoutLines(), "cm churn client");
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stdoutLines() + server.stderr()).isZero();
            List<String> out = server.stdoutLines();
            checkpointsAndVerdict(out.subList(1, out.size()), "cm churn server");
        }
    }

    private static void checkpointsAndVerdict(List<String> lines, String who) {
        assertThat(lines).hasSize(11);
        assertThat(lines.get(9)).startsWith(who + ": cycles=500 ");
        assertThat(lines.getLast()).startsWith("every cycle completed").endsWith("flat after the warm-up");
    }

    @Test
    void aClientWhoseServerNeverAnswersStopsAtItsTimeoutInOneLine() throws Exception {
        // No NIC holds 127.0.79.3: the REQ goes unanswered, as to a host that is down.
        try (ChildJrxe client = ChildJrxe.start("cm-churn", "-s", "127.0.79.3", "-p", "7474", "--cycles", "5",
                "--timeout", "1")) {
            assertThat(client.waitFor(LIMIT_SECONDS)).isEqualTo(1);
            assertThat(client.stdoutLines()).containsExactly(
                    "cm churn client: connection 1 of 5: no RDMA_CM_EVENT_ESTABLISHED within the timeout");
            assertThat(client.stderr()).doesNotContain("Exception");
        }
    }
}
