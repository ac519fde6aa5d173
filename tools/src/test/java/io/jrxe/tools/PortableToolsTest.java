package io.jrxe.tools;

import io.jrxe.tools.common.ChildJrxe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The end-to-end path a host without Linux's native pieces takes, run here with {@code -Djrxe.portable=true} in
 * child JVMs started as the launcher starts them: the demo, decode and analyze of its capture, a pingpong and a
 * write-bw between two jrxe NICs in two processes, and short soak and conformance runs. A small set, so that the
 * whole build runs it every time: each command is asked for a few seconds of work. Each child's stderr must be
 * empty: a Linux-only piece that is tried and fails would say so there (or with a stack trace).
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class PortableToolsTest {
    private static final int LIMIT_SECONDS = 90;
    private static final List<String> PORTABLE = List.of("-Djrxe.portable=true");
    private static final String NIO = "NIO (epoll unavailable: portable path forced (-Djrxe.portable=true))";

    @TempDir
    Path dir;

    @Test
    void theDemoAndDecodeAndAnalyzeOfItsCapture() throws Exception {
        Path capture = dir.resolve("demo.pcapng");
        List<String> demo = succeeds("demo", "--capture", capture.toString());
        assertThat(demo).anyMatch(l -> l.endsWith(", transport " + NIO + ", path MTU 1024"))
                .anyMatch(l -> l.startsWith("  IPv4 transmit: UDP socket (portable path forced (-Djrxe.portable=true))"))
                .endsWith("All steps behaved as expected.");

        List<String> decoded = succeeds("decode", capture.toString());
        assertThat(decoded).anyMatch(l -> l.contains("RC RDMA_WRITE_ONLY") && l.endsWith("icrc=ok"))
                .noneMatch(l -> l.contains("icrc=bad"));

        List<String> analysis = runs(1, "analyze", capture.toString()); // 1: an error found, the demo's deliberate mistake
        assertThat(analysis.getFirst()).contains(": 42 frames (42 RoCEv2, 0 other, 0 malformed), ").endsWith("; ICRC bad 0");
        assertThat(analysis).anyMatch(l -> l.startsWith("RC connection 1: 127.0.0.1 QP 0x000011 <-> 127.0.0.2 QP 0x000042"))
                .anyMatch(l -> l.contains("error") && l.contains("NAK remote access error"))
                .contains("summary: 1 connection, 1 error, 0 warnings, 0 notes, 0 chat: something is wrong");
    }

    @Test
    void pingpongAndWriteBwBetweenTwoProcesses() throws Exception {
        int tcp = freeTcpPort();
        try (ChildJrxe server = child("pingpong", "--addr", "127.0.38.1", "-d", "jrxe-port-srv", "-p", Integer.toString(tcp),
                "-n", "200", "-s", "64")) {
            server.awaitLine(l -> l.startsWith("  local address:"), LIMIT_SECONDS);
            List<String> client = succeeds("pingpong", "--addr", "127.0.38.2", "-d", "jrxe-port-cli", "-p", Integer.toString(tcp),
                    "-n", "200", "-s", "64", "127.0.38.1");
            assertThat(client).anyMatch(l -> l.matches("200 iters in \\d+\\.\\d\\d seconds = \\d+\\.\\d\\d usec/iter"));
            ends(server);
        }
        tcp = freeTcpPort();
        try (ChildJrxe server = child("write-bw", "--addr", "127.0.38.1", "-d", "jrxe-port-srv", "-p", Integer.toString(tcp),
                "-n", "200", "-s", "65536")) {
            server.awaitLine(l -> l.equals("* Waiting for client to connect... *"), LIMIT_SECONDS);
            noEpollLibrary(server);
            List<String> client = succeeds("write-bw", "--addr", "127.0.38.2", "-d", "jrxe-port-cli", "-p", Integer.toString(tcp),
                    "-n", "200", "-s", "65536", "--json", "127.0.38.1");
            assertThat(String.join("\n", client)).contains("\"test\": \"RDMA_Write_BW_Test\"",
                    "\"results\": [{\"MsgSize\": 65536, \"n_iterations\": 200, ");
            ends(server);
        }
    }

    @Test
    void shortSoakAndConformanceRuns() throws Exception {
        List<String> soak = succeeds("soak", "--ops", "300", "--seed", "38");
        assertThat(soak).hasSize(1);
        assertThat(soak.getFirst()).startsWith("ops=300 ok=").contains(" mismatches=0 lost_completions=0 duplicated_completions=0 ");

        List<String> conformance = succeeds("conformance", "--case", "PSN-*");
        assertThat(conformance.getLast()).matches("conformance: (\\d+) cases, \\1 passed, 0 failed, 0 skipped");
    }

    private static ChildJrxe child(String... args) {
        return ChildJrxe.startIn(List.of(), PORTABLE, args);
    }

    /** Runs `jrxe ARGS` portably to its end: exit 0, stderr as {@link #quiet} wants it; its stdout. */
    private static List<String> succeeds(String... args) throws InterruptedException {
        return runs(0, args);
    }

    private static List<String> runs(int expectedStatus, String... args) throws InterruptedException {
        try (ChildJrxe c = child(args)) {
            int status = c.waitFor(LIMIT_SECONDS);
            List<String> out = new ArrayList<>(c.stdoutLines());
            assertThat(status).as("jrxe %s: %s%s", String.join(" ", args), c.stderr(), out).isEqualTo(expectedStatus);
            quiet(c, args);
            return out;
        }
    }

    /**
     * Nothing on stderr but, from the commands that name a device's transmit path there, the one line that says the
     * raw socket was not tried: a Linux-only piece that was tried and failed would say more (or print a stack trace).
     */
    private static void quiet(ChildJrxe c, String... args) {
        assertThat(c.rawStderr().lines()).as("jrxe %s", String.join(" ", args)).allMatch(l -> l.matches(
                "jrxe: [\\w-]+: IPv4 transmit: UDP socket \\(portable path forced \\(-Djrxe.portable=true\\)\\): IPv4 peers other"
                        + " than jrxe will drop its packets"));
    }

    /**
     * Netty's epoll library is not even loaded: the server's NIC thread runs, and nothing of the library is mapped
     * into the process (where /proc shows the mappings; on Linux without the switch there are some).
     */
    private static void noEpollLibrary(ChildJrxe server) throws IOException {
        Path maps = Path.of("/proc", Long.toString(server.pid()), "maps");
        if (!java.nio.file.Files.isReadable(maps)) {
            System.out.println("PortableToolsTest: " + maps + " cannot be read: whether Netty's epoll library was loaded is not checked");
            return;
        }
        assertThat(java.nio.file.Files.readAllLines(maps)).noneMatch(l -> l.contains("netty_transport_native_epoll"));
    }

    private static void ends(ChildJrxe server) throws InterruptedException {
        assertThat(server.waitFor(LIMIT_SECONDS)).as(server.stderr()).isZero();
        quiet(server);
    }

    private static int freeTcpPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0)) {
            return probe.getLocalPort();
        }
    }
}
