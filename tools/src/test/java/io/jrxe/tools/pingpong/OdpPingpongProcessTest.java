package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe pingpong -o` between two JVMs: the server (a child JVM on 127.0.72.1) registers its two-page buffer
 * ON_DEMAND and faults each page in at the first message it receives; the client (this JVM, 127.0.72.2) adds -P
 * and has both pages prefetched before it sends, so it faults none. Each prints its ODP counters after the results.
 * With -O the same through one implicit MR on each side (127.0.72.6 and .7): the buffer is mapped into the device's
 * address space and reached through the implicit MR's L_Key, with the same faults and prefetches.
 */
class OdpPingpongProcessTest {
    private static final Pattern ODP = Pattern.compile("ODP on (\\S+): page_faults=(\\d+) prefetched_pages=(\\d+) rnr_naks=(\\d+)");
    private static final long CHILD_SECONDS = 90;
    private static final int SIZE = 8192;
    private static final int ITERS = 20;

    private static long[] odpCounters(List<String> lines, String device) {
        Matcher m = ODP.matcher(lines.getLast());
        assertThat(m.matches()).as("the last line: %s", lines).isTrue();
        assertThat(m.group(1)).isEqualTo(device);
        return new long[] {Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4))};
    }

    @Test
    void pagesFaultInOnTheFirstExchangeUnlessPrefetched() throws Exception {
        runPair("-o", 19720, "127.0.72.1", "127.0.72.2");
    }

    @Test
    void anImplicitMrFaultsAndPrefetchesAsAnOnDemandMrDoes() throws Exception {
        runPair("-O", 19724, "127.0.72.6", "127.0.72.7");
    }

    /** The server with {@code odpOption}, the client with it and -P, checking bytes both ways (-c). */
    private static void runPair(String odpOption, int port, String serverAddress, String clientAddress) throws Exception {
        List<String> common = List.of("-p", String.valueOf(port), "-n", String.valueOf(ITERS), "-s", String.valueOf(SIZE),
                "-c", "--warmup", "0", odpOption);
        List<String> serverArgs = new java.util.ArrayList<>(List.of("pingpong", "--addr", serverAddress, "-d", "jrxe-odp-srv"));
        serverArgs.addAll(common);
        try (ChildJrxe server = ChildJrxe.start(serverArgs.toArray(String[]::new))) {
            server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS);
            List<String> clientArgs = new java.util.ArrayList<>(List.of("pingpong", "--addr", clientAddress, "-d", "jrxe-odp-cli", "-P"));
            clientArgs.addAll(common);
            clientArgs.add(serverAddress);
            InProcess client = InProcess.run(clientArgs.toArray(String[]::new));
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(client.err()).isEmpty();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
            List<String> serverLines = server.stdoutLines();
            assertThat(serverLines).as("the server's data check passed").noneMatch(l -> l.startsWith("invalid data"));

            // The result lines as without -o, then the ODP line.
            PingpongProcessTest.checkRun(serverLines.subList(0, serverLines.size() - 1), SIZE, ITERS);
            PingpongProcessTest.checkRun(client.lines().subList(0, client.lines().size() - 1), SIZE, ITERS);
            assertThat(odpCounters(serverLines, "jrxe-odp-srv")).as("each page faulted once, by the first receive")
                    .containsExactly(2, 0, 0);
            assertThat(odpCounters(client.lines(), "jrxe-odp-cli")).as("both pages prefetched, none faulted")
                    .containsExactly(0, 2, 0);
        }
    }
}
