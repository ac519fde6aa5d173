package io.jrxe.tools.shm;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shared-memory wire between two processes, as a user runs it ({@code --wire shm}, the rings in a directory of
 * the test's own): write-bw and a captured pingpong complete, the captures' ICRCs are right for jrxe's decoder and for
 * scapy's RoCE layer, a soak with faults on both NICs ends with every operation right, a client whose server was killed with SIGKILL ends in bounded time with the retry status and
 * one line, a server started again on the same address takes a new client, and a multicast datagram reaches a member
 * of its group in another process. The addresses are loopback ones
 * because the tools trade QP numbers over TCP to the server's address; the wire itself needs no interface.
 */
@Timeout(value = 4, unit = TimeUnit.MINUTES)
class ShmWireProcessTest {
    private static final int LIMIT_SECONDS = 90;
    private static final long SURVIVOR_BOUND_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static final String SERVER = "127.0.70.1";
    private static final String CLIENT = "127.0.70.2";

    @TempDir
    Path dir;

    private ChildJrxe child(String... args) {
        return ChildJrxe.startIn(List.of(), List.of("-Djrxe.shm.dir=" + dir.resolve("rings")), args);
    }

    /** With its NICs run by their own threads (the bandwidth tests' default) or by the programs' threads. */
    @ParameterizedTest
    @ValueSource(strings = {"thread", "invoker"})
    void writeBwBetweenTwoProcessesThenNoRingIsLeft(String progress) throws Exception {
        String tcp = Integer.toString(freeTcpPort());
        try (ChildJrxe server = child("write-bw", "--wire", "shm", "--progress", progress, "--addr", SERVER, "-p", tcp,
                "-n", "500", "-s", "65536")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), LIMIT_SECONDS);
            assertThat(rings()).containsExactly(SERVER + "_4791.ring");
            try (ChildJrxe client = child("write-bw", "--wire", "shm", "--progress", progress, "--addr", CLIENT, "-p", tcp,
                    "-n", "500", "-s", "65536", "--json", "--counters", SERVER)) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                String out = String.join("\n", client.stdoutLines());
                assertThat(out).contains("\"results\": [{\"MsgSize\": 65536, \"n_iterations\": 500, ");
                assertThat(client.stderr().lines().toList()).as("the counters, nothing else").singleElement()
                        .satisfies(l -> assertThat(l).startsWith("counters of jrxe0: sent_pkts=")
                                .as("a window of packets in flight never fills 8 MiB").doesNotContain("jrxe_shm_ring_full"));
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
        }
        assertThat(rings()).as("each device removes its ring as it closes").isEmpty();
    }

    @Test
    void aCapturedPingpongsIcrcsAreRightForTheDecoderAndForScapy() throws Exception {
        String tcp = Integer.toString(freeTcpPort());
        Path capture = dir.resolve("client.pcapng");
        try (ChildJrxe server = child("pingpong", "--wire", "shm", "--addr", SERVER, "-p", tcp, "-n", "50", "-s", "2000")) {
            server.awaitLine(l -> l.startsWith("  local address:"), LIMIT_SECONDS);
            try (ChildJrxe client = child("pingpong", "--wire", "shm", "--addr", CLIENT, "-p", tcp, "-n", "50", "-s", "2000",
                    "--capture", capture.toString(), SERVER)) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
        }
        List<String> decoded = succeeds("decode", "--verify-icrc", capture.toString());
        assertThat(decoded.stream().filter(l -> l.contains("icrc=ok")).count()).as("SENDs and ACKs both ways").isGreaterThanOrEqualTo(200);
        assertThat(decoded).noneMatch(l -> l.contains("icrc=bad"));

        Path script = ExternalTool.scapyIcrcScript(dir);
        List<String> scapy = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "pcap",
                capture.toString()), 120).lines().filter(l -> !l.startsWith("WARNING")).toList();
        assertThat(scapy).hasSizeGreaterThanOrEqualTo(200).allMatch(l -> l.equals("ok 0"));
    }

    @Test
    void aSoakWithFaultsBothWaysEndsWithNothingWrongLostOrDuplicated() throws Exception {
        String tcp = Integer.toString(freeTcpPort());
        String faults = "loss=0.01,dup=0.01,reorder=0.01,corrupt=0.005,seed=";
        try (ChildJrxe server = child("udp-soak", "--wire", "shm", "--addr", SERVER, "-p", tcp, "--ops", "1000", "--both-ways",
                "--seed", "38", "--faults", faults + "1")) {
            List<String> client = succeeds("udp-soak", "--wire", "shm", "--addr", CLIENT, "-p", tcp, "--ops", "1000",
                    "--both-ways", "--seed", "39", "--faults", faults + "2", SERVER);
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
            for (List<String> side : List.of(client, server.stdoutLines())) {
                assertThat(side).singleElement().satisfies(l -> assertThat(l).startsWith("ops=1000 ok=1000 failed=0 mismatches=0 "
                        + "lost_completions=0 duplicated_completions=0 ").endsWith(" peer=good"));
            }
        }
    }

    @Test
    void aClientWhoseServerWasKilledEndsWithRetryExceededAndARestartedServerTakesANewClient() throws Exception {
        String tcp = Integer.toString(freeTcpPort());
        try (ChildJrxe server = child("write-bw", "--wire", "shm", "--addr", SERVER, "-p", tcp, "-n", "10000000", "-s", "4096");
             ChildJrxe client = child("write-bw", "--wire", "shm", "--addr", CLIENT, "-p", tcp, "-n", "10000000", "-s", "4096",
                     SERVER)) {
            client.awaitLine(l -> l.startsWith(" #bytes"), LIMIT_SECONDS);
            long killed = System.nanoTime();
            server.kill();
            assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isEqualTo(2);
            assertThat(System.nanoTime() - killed).as("the survivor's time to end").isLessThan(SURVIVOR_BOUND_NANOS);
            assertThat(client.stderr().lines().toList()).hasSize(1).allSatisfy(l -> assertThat(l)
                    .startsWith("jrxe write-bw: Completion with error at send: status RETRY_EXC_ERR (12, transport retry "
                            + "counter exceeded)"));
        }
        assertThat(rings()).as("the killed server's ring is left behind").containsExactly(SERVER + "_4791.ring");
        tcp = Integer.toString(freeTcpPort());
        try (ChildJrxe server = child("write-bw", "--wire", "shm", "--addr", SERVER, "-p", tcp, "-n", "500", "-s", "4096")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), LIMIT_SECONDS);
            try (ChildJrxe client = child("write-bw", "--wire", "shm", "--addr", CLIENT, "-p", tcp, "-n", "500", "-s", "4096",
                    SERVER)) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
        }
    }

    @Test
    void aSecondDeviceOnTheSameAddressIsRefusedInOneLine() throws Exception {
        String tcp = Integer.toString(freeTcpPort());
        try (ChildJrxe server = child("write-bw", "--wire", "shm", "--addr", SERVER, "-p", tcp, "-n", "10", "-s", "4096")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), LIMIT_SECONDS);
            try (ChildJrxe second = child("write-bw", "--wire", "shm", "--addr", SERVER, "-p", Integer.toString(freeTcpPort()))) {
                assertThat(second.waitFor(LIMIT_SECONDS)).isEqualTo(2);
                assertThat(second.stderr().lines().toList()).hasSize(1).allSatisfy(l -> assertThat(l)
                        .startsWith("jrxe write-bw: cannot open device jrxe0 on " + SERVER + ": ").contains("in use")
                        .doesNotContain("Exception"));
            }
            server.kill();
        }
    }

    @Test
    void aBadWireIsRefusedInOneLine() throws Exception {
        try (ChildJrxe c = child("write-bw", "--wire", "rdma")) {
            assertThat(c.waitFor(LIMIT_SECONDS)).isEqualTo(1);
            assertThat(c.stderr().lines().toList()).containsExactly("jrxe write-bw: --wire rdma: udp or shm (see 'jrxe write-bw --help')");
        }
    }

    private List<String> rings() throws IOException {
        Path rings = dir.resolve("rings");
        if (!Files.isDirectory(rings)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(rings)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aMulticastDatagramReachesTheGroupsMemberInAnotherProcess() throws Exception {
        String group = "239.70.0.9";
        try (ChildJrxe receiver = child("mcast", "--wire", "shm", "--addr", SERVER, "--recv", "3", "--timeout", "60", group)) {
            receiver.awaitLine(l -> l.startsWith("attached QP"), LIMIT_SECONDS);
            List<String> sender = succeeds("mcast", "--wire", "shm", "--addr", CLIENT, "--send", "3", group);
            assertThat(sender).contains("mcast: sent 3, received 0");
            assertThat(receiver.waitFor(LIMIT_SECONDS)).as(receiver.stderr()).isZero();
            assertThat(receiver.stdoutLines()).filteredOn(l -> l.startsWith("received ")).hasSize(3)
                    .allSatisfy(l -> assertThat(l).contains("from " + CLIENT));
        }
        assertThat(rings()).as("the membership is kept beside the rings, and every ring is gone").containsExactly("groups");
    }

    private List<String> succeeds(String... args) throws InterruptedException {
        try (ChildJrxe c = child(args)) {
            int status = c.waitFor(LIMIT_SECONDS);
            List<String> out = new ArrayList<>(c.stdoutLines());
            assertThat(status).as("jrxe %s: %s%s", String.join(" ", args), c.stderr(), out).isZero();
            return out;
        }
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}
