package io.jrxe.tools;

import io.jrxe.tools.common.ChildJrxe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One side of a stream killed with SIGKILL (as {@code kill -9}: no goodbye to its peer) while the other side's QPs
 * are busy: the survivor ends in bounded time with the status IBTA gives a requester whose peer stopped answering,
 * transport retry counter exceeded, in one line and with no stack trace, and leaves no thread behind (its process
 * ends). Through the connection manager, a client whose server dies mid-run stops at its bound, and a server started
 * again on the same address and port takes new connections.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class PeerKilledProcessTest {
    private static final int LIMIT_SECONDS = 60;
    /** The ACK timeout (about 67 ms, doubled at most) times 8 tries, with room for a loaded machine. */
    private static final long SURVIVOR_BOUND_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final Pattern RETRY_EXCEEDED = Pattern.compile(
            "jrxe (write|read|send)-bw: Completion with error at (send|recv): status RETRY_EXC_ERR \\(12, transport retry "
                    + "counter exceeded\\), vendor error \\d+ \\(after (\\d+) posted, \\d+ completed\\)");

    @ParameterizedTest(name = "{0}")
    @CsvSource({"write-bw, 127.0.41.1, 127.0.41.2, 19611", "read-bw, 127.0.41.3, 127.0.41.4, 19612",
        "send-bw, 127.0.41.5, 127.0.41.6, 19613"})
    void theRequesterWhosePeerWasKilledMidStreamEndsWithRetryExceeded(String command, String serverAddress,
                                                                       String clientAddress, String port) throws Exception {
        String iterations = "10000000";
        try (ChildJrxe server = ChildJrxe.start(command, "--addr", serverAddress, "-p", port, "-n", iterations, "-s", "4096");
             ChildJrxe client = ChildJrxe.start(command, "--addr", clientAddress, "-p", port, "-n", iterations, "-s", "4096",
                     serverAddress)) {
            client.awaitLine(l -> l.startsWith(" #bytes"), LIMIT_SECONDS);
            long killed = System.nanoTime();
            server.kill();
            assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isEqualTo(2);
            assertThat(System.nanoTime() - killed).as("the survivor's time to end").isLessThan(SURVIVOR_BOUND_NANOS);
            List<String> err = client.stderr().lines().toList();
            assertThat(err).as("one line").hasSize(1);
            Matcher m = RETRY_EXCEEDED.matcher(err.getFirst());
            if (command.equals("send-bw") && !m.matches()) {
                // send_bw prints its table's header before the sync that starts the sends: a kill that lands there
                // ends the client on the exchange's TCP connection instead, as cleanly. The kernel ends a killed
                // process's socket with a FIN when nothing it was sent is left unread, otherwise with a reset.
                String peer = serverAddress + ":" + port;
                assertThat(err.getFirst()).isIn(
                        "jrxe send-bw: reading the sync before the test from " + peer + " failed: Connection reset",
                        "jrxe send-bw: the peer " + peer + " closed the connection while jrxe waited for the sync "
                                + "before the test (0 of 108 bytes came)");
                return;
            }
            assertThat(m.matches()).as(err.getFirst()).isTrue();
            assertThat(Long.parseLong(m.group(3))).as("work requests posted before the peer died").isPositive();
        }
    }

    @Test
    void theServerWhoseClientWasKilledMidStreamEndsInOneLine() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("write-bw", "--addr", "127.0.41.7", "-p", "19614", "-n", "10000000");
             ChildJrxe client = ChildJrxe.start("write-bw", "--addr", "127.0.41.8", "-p", "19614", "-n", "10000000",
                     "127.0.41.7")) {
            client.awaitLine(l -> l.startsWith(" #bytes"), LIMIT_SECONDS);
            long killed = System.nanoTime();
            client.kill();
            // The passive side of a WRITE test waits on the exchange's TCP connection, which the kernel resets.
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isEqualTo(2);
            assertThat(System.nanoTime() - killed).isLessThan(SURVIVOR_BOUND_NANOS);
            assertThat(server.stderr().lines().toList()).hasSize(1).allSatisfy(l -> assertThat(l)
                    .startsWith("jrxe write-bw: ").doesNotContain("Exception"));
        }
    }

    @Test
    void aCmClientWhoseServerWasKilledStopsAtItsBoundAndARestartedServerTakesNewConnections() throws Exception {
        String[] server = {"cm-churn", "-b", "127.0.41.9", "-p", "7481"};
        try (ChildJrxe first = ChildJrxe.start(concat(server, "--cycles", "100000"))) {
            first.awaitLine(l -> l.startsWith("cm churn server: listening"), LIMIT_SECONDS);
            // The first line comes after a tenth of the cycles: 100 connections made and ended, 900 to go.
            try (ChildJrxe client = ChildJrxe.start("cm-churn", "-s", "127.0.41.9", "-p", "7481", "--cycles", "1000",
                    "--timeout", "2")) {
                client.awaitLine(l -> l.startsWith("cm churn client: cycles=100 "), LIMIT_SECONDS);
                long killed = System.nanoTime();
                first.kill();
                assertThat(client.waitFor(LIMIT_SECONDS)).isEqualTo(1);
                assertThat(System.nanoTime() - killed).isLessThan(SURVIVOR_BOUND_NANOS);
                assertThat(client.stdoutLines().getLast()).matches("cm churn client: connection \\d+ of 1000: .+");
                assertThat(client.stderr()).doesNotContain("Exception");
            }
        }
        try (ChildJrxe again = ChildJrxe.start(concat(server, "--cycles", "20"))) {
            again.awaitLine(l -> l.startsWith("cm churn server: listening"), LIMIT_SECONDS);
            try (ChildJrxe client = ChildJrxe.start("cm-churn", "-s", "127.0.41.9", "-p", "7481", "--cycles", "20")) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stdoutLines() + client.stderr()).isZero();
            }
            assertThat(again.waitFor(LIMIT_SECONDS)).isZero();
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
