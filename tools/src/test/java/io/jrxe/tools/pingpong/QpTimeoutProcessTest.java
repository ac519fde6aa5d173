package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe pingpong --qp-timeout`: the client's first ACK is held 200 ms on its way in (`--faults`). With the rdma-core
 * pingpongs' timeout (14: 67 ms) the client's SEND times out and is sent again before the ACK comes; with 18 (about
 * 1 s) the held ACK arrives first and nothing is sent again. Server in a child JVM, client in this one.
 */
class QpTimeoutProcessTest {
    private static final Pattern RETRIES = Pattern.compile("counters of \\S+:.* completer_retry_err=(\\d+)\\b");
    private static final long CHILD_SECONDS = 90;

    @Test
    void aLongerAckTimeoutWaitsOutAnAckHeld200Ms() throws Exception {
        assertThat(retriesWith(19731)).as("timeout 14: the held ACK comes after the 67 ms timeout").isGreaterThanOrEqualTo(1);
        assertThat(retriesWith(19733, "--qp-timeout", "18")).as("timeout 18: the held ACK comes first").isZero();
    }

    /**
     * Every ACK the client receives is dropped: its one SEND is retried until retry_cnt runs out, eight timeouts of
     * 134 to 201 ms (--qp-timeout 15), longer than its 1 s --timeout for completions. The program waits out the QP's
     * retries and reports how the SEND ended, rather than that the peer stopped answering.
     */
    @Test
    void aSendWhoseAcksAreLostEndsWithTheQpsOwnStatus() throws Exception {
        List<String> common = List.of("-p", "19735", "-n", "1", "-s", "64", "--warmup", "0");
        List<String> serverArgs = new ArrayList<>(List.of("pingpong", "--addr", "127.0.73.1", "-d", "jrxe-to-srv2"));
        serverArgs.addAll(common);
        try (ChildJrxe server = ChildJrxe.start(serverArgs.toArray(String[]::new))) {
            server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS);
            List<String> clientArgs = new ArrayList<>(List.of("pingpong", "--addr", "127.0.73.2", "-d", "jrxe-to-cli2",
                    "--timeout", "1", "--qp-timeout", "15", "--faults", "drop,op=ack,dir=recv"));
            clientArgs.addAll(common);
            clientArgs.add("127.0.73.1");
            InProcess client = InProcess.run(clientArgs.toArray(String[]::new));
            assertThat(client.status()).as(client.toString()).isEqualTo(2);
            assertThat(client.err()).as(client.toString())
                    .contains("jrxe pingpong: Failed status transport retry counter exceeded (12) for wr_id 2 (after 0 sends and 1 receives;")
                    .doesNotContain("no completion");
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
        }
    }

    /** The client's completer_retry_err after 5 exchanges with its first received ACK held 200 ms. */
    private static long retriesWith(int port, String... clientOptions) throws Exception {
        List<String> common = List.of("-p", String.valueOf(port), "-n", "5", "-s", "64", "--warmup", "0");
        List<String> serverArgs = new ArrayList<>(List.of("pingpong", "--addr", "127.0.73.1", "-d", "jrxe-to-srv"));
        serverArgs.addAll(common);
        try (ChildJrxe server = ChildJrxe.start(serverArgs.toArray(String[]::new))) {
            server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS);
            List<String> clientArgs = new ArrayList<>(List.of("pingpong", "--addr", "127.0.73.2", "-d", "jrxe-to-cli",
                    "--faults", "delay:200ms,op=ack,dir=recv,count=1", "--counters"));
            clientArgs.addAll(common);
            clientArgs.addAll(List.of(clientOptions));
            clientArgs.add("127.0.73.1");
            InProcess client = InProcess.run(clientArgs.toArray(String[]::new));
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
            String said = client.out() + client.err();
            assertThat(said).as("the counters, which name only those not zero").contains("counters of jrxe-to-cli:")
                    .containsPattern("jrxe_fault_rx_delayed=1\\b");
            Matcher m = RETRIES.matcher(said);
            return m.find() ? Long.parseLong(m.group(1)) : 0;
        }
    }
}
