package io.jrxe.tools.rdmacm;

import io.jrxe.tools.common.ChildJrxe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CM tools in two processes each, jrxe against jrxe on loopback (IPv4; IPv6's loopback has one address, and
 * two jrxe NICs need two), every line compared with what the real programs printed between two kernel rxe
 * devices (testdata/rxe-cm/cm_*.txt). A server is waited for by its own line: rping -d's "rdma_listen", the
 * tests' "starting server", each printed once it listens.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class CmToolsProcessTest {
    private static final int LIMIT_SECONDS = 90;

    @Test
    void rpingPingsThreeTimesWithValidationAndARefusedConnectGetsReason8(@TempDir Path dir) throws Exception {
        Path capture = dir.resolve("rping.pcapng");
        KernelOutput kernel = KernelOutput.of("cm_rping_v4.txt");
        KernelOutput refusedByKernel = KernelOutput.of("cm_refused.txt");
        try (ChildJrxe server = ChildJrxe.start("rping", "-s", "-a", "127.0.77.1", "-p", "7174", "-v", "-d")) {
            server.awaitLine(l -> l.equals("rdma_listen"), LIMIT_SECONDS);

            try (ChildJrxe refused = ChildJrxe.start("rping", "-c", "-a", "127.0.77.1", "-p", "7999", "-C", "1", "-v")) {
                assertThat(refused.waitFor(LIMIT_SECONDS)).as(refused.stderr()).isEqualTo(255);
                assertThat(refused.stdoutLines()).isEmpty();
                assertThat(refused.stderr().lines().toList()).isEqualTo(refusedByKernel.client())
                        .containsExactly("cma event RDMA_CM_EVENT_REJECTED, error 8");
            }

            try (ChildJrxe client = ChildJrxe.start("rping", "-c", "-a", "127.0.77.1", "-C", "3", "-v", "-V",
                    "--capture", capture.toString())) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                List<String> out = client.stdoutLines();
                assertThat(out).isEqualTo(kernel.client().stream().filter(l -> l.startsWith("ping data")).toList());
                assertThat(client.stderr().lines().toList()).containsExactly("client DISCONNECT EVENT...");
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
            assertThat(server.stdoutLines().stream().filter(l -> l.startsWith("server ping data")).toList())
                    .isEqualTo(kernel.server().stream().filter(l -> l.startsWith("server ping data")).toList());
            assertThat(server.stdoutLines()).as("-d's steps").contains("rdma_bind_addr successful", "accepting client connection request",
                    "server posted rdma read req ", "rdma read completion", "rdma write completion");
            assertThat(server.stderr().lines().toList())
                    .isEqualTo(kernel.server().stream().filter(l -> !l.startsWith("server ping data")).toList())
                    .containsExactly("server DISCONNECT EVENT...", "wait for RDMA_READ_ADV state 10");
        }
        GoldenRequest.assertSameAsKernels(capture, "cm_rping_v4.pcap");
    }

    @Test
    void aPersistentRpingServerServesOneClientAfterAnotherAndKeepsListening() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("rping", "-s", "-P", "-a", "127.0.77.5", "-v", "-d")) {
            server.awaitLine(l -> l.equals("rdma_listen"), LIMIT_SECONDS);
            for (int client = 0; client < 2; client++) {
                try (ChildJrxe c = ChildJrxe.start("rping", "-c", "-a", "127.0.77.5", "-C", "2", "-V")) {
                    assertThat(c.waitFor(LIMIT_SECONDS)).as("client %d: %s", client, c.stderr()).isZero();
                }
                server.awaitLine(l -> l.startsWith("server ping data: rdma-ping-1: "), LIMIT_SECONDS);
            }
            assertThat(server.pid()).as("still serving").matches(pid -> ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        }
    }

    @Test
    void ucmatoseTwoConnectionsFourMessagesEachPrintWhatTheRealOnePrints(@TempDir Path dir) throws Exception {
        Path capture = dir.resolve("ucmatose.pcapng");
        KernelOutput kernel = KernelOutput.of("cm_ucmatose.txt");
        try (ChildJrxe server = ChildJrxe.start("ucmatose", "-b", "127.0.78.1", "-c", "2", "-C", "4")) {
            server.awaitLine(l -> l.equals("cmatose: starting server"), LIMIT_SECONDS);
            try (ChildJrxe refused = ChildJrxe.start("ucmatose", "-s", "127.0.78.1", "-p", "7999")) {
                assertThat(refused.waitFor(LIMIT_SECONDS)).as(refused.stderr()).isEqualTo(8);
                assertThat(refused.stdoutLines()).containsExactly("cmatose: starting client", "cmatose: connecting",
                        "cmatose: event: RDMA_CM_EVENT_REJECTED, error: 8", "test complete", "return status 8");
            }
            try (ChildJrxe client = ChildJrxe.start("ucmatose", "-s", "127.0.78.1", "-c", "2", "-C", "4",
                    "--capture", capture.toString())) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                assertThat(client.stdoutLines()).isEqualTo(kernel.client());
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
            assertThat(server.stdoutLines()).isEqualTo(kernel.server());
            assertThat(server.stderr()).isEmpty();
        }
        GoldenRequest.assertSameAsKernels(capture, "cm_ucmatose.pcap");
    }

    @Test
    void udaddyTwoUdQpsFoundBySidrExchangeFourDatagramsEachWay() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("udaddy", "-b", "127.0.79.1", "-c", "2", "-C", "4", "-S", "1000")) {
            server.awaitLine(l -> l.equals("udaddy: starting server"), LIMIT_SECONDS);
            try (ChildJrxe client = ChildJrxe.start("udaddy", "-s", "127.0.79.1", "-c", "2", "-C", "4", "-S", "1000")) {
                assertThat(client.waitFor(LIMIT_SECONDS)).as(client.stderr()).isZero();
                assertThat(client.stdoutLines()).containsExactly("udaddy: starting client", "udaddy: connecting",
                        "initiating data transfers", "receiving data transfers", "data transfers complete", "test complete",
                        "return status 0");
            }
            assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
            assertThat(server.stdoutLines()).containsExactly("udaddy: starting server", "receiving data transfers",
                    "sending replies", "data transfers complete", "test complete", "return status 0");
        }
        try (ChildJrxe client = ChildJrxe.start("udaddy", "-s", "127.0.79.3", "-S", "2000")) {
            assertThat(client.waitFor(LIMIT_SECONDS)).as("before any request: %s", client.stderr()).isEqualTo(256 - 22);
            assertThat(client.stdoutLines()).contains("udaddy: message_size 2000 is larger than active mtu 1024",
                    "return status -22");
        }
    }
}
