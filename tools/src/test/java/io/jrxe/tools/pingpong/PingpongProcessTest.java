package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.dissect.Dissector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * jrxe pingpong, uc-pingpong, srq-pingpong and ud-pingpong against each other across two JVMs: the server in a child JVM on 127.0.1.1,
 * the client in this one on 127.0.1.2, each on a TCP port of its own. The test waits for the server's local
 * address line (it listens before it prints it), never sleeps.
 */
class PingpongProcessTest {
    static final Pattern ADDRESS = Pattern.compile(
            "  (local|remote) address: {1,2}LID 0x([0-9a-f]{4}), QPN 0x([0-9a-f]{6}), PSN 0x([0-9a-f]{6})[,:] GID (\\S+)");
    static final Pattern BYTES = Pattern.compile("(\\d+) bytes in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) Mbit/sec");
    static final Pattern ITERS = Pattern.compile("(\\d+) iters in (\\d+\\.\\d\\d) seconds = (\\d+\\.\\d\\d) usec/iter");
    private static final long CHILD_SECONDS = 90;

    @TempDir
    Path dir;

    record Address(String side, int qpn, int psn, String gid) {
    }

    static Address address(String line) {
        Matcher m = ADDRESS.matcher(line);
        assertThat(m.matches()).as("address line: %s", line).isTrue();
        assertThat(m.group(2)).isEqualTo("0000");
        return new Address(m.group(1), Integer.parseInt(m.group(3), 16), Integer.parseInt(m.group(4), 16), m.group(5));
    }

    /** Checks a finished side's lines; returns its local and remote addresses. */
    static Address[] checkRun(List<String> lines, int size, int iters) {
        Address[][] all = checkRun(lines, size, iters, 1);
        return new Address[] {all[0][0], all[1][0]};
    }

    /** Checks a finished side's lines with {@code qps} QPs; returns its local addresses and its remote ones, in QP order. */
    static Address[][] checkRun(List<String> lines, int size, int iters, int qps) {
        assertThat(lines).as("%s", lines).hasSize(2 * qps + 2);
        Address[] local = new Address[qps];
        Address[] remote = new Address[qps];
        for (int i = 0; i < qps; i++) {
            local[i] = address(lines.get(i));
            remote[i] = address(lines.get(qps + i));
            assertThat(local[i].side()).isEqualTo("local");
            assertThat(remote[i].side()).isEqualTo("remote");
        }
        Matcher bytes = BYTES.matcher(lines.get(2 * qps));
        assertThat(bytes.matches()).as(lines.get(2 * qps)).isTrue();
        assertThat(Long.parseLong(bytes.group(1))).isEqualTo((long) size * iters * 2);
        assertThat(Double.parseDouble(bytes.group(3))).isPositive();
        Matcher it = ITERS.matcher(lines.get(2 * qps + 1));
        assertThat(it.matches()).as(lines.get(2 * qps + 1)).isTrue();
        assertThat(Integer.parseInt(it.group(1))).isEqualTo(iters);
        assertThat(Double.parseDouble(it.group(3))).isPositive();
        assertThat(it.group(2)).isEqualTo(bytes.group(2));
        return new Address[][] {local, remote};
    }

    private static long counter(String line, String name) {
        Matcher m = Pattern.compile("\\b" + name + "=(\\d+)\\b").matcher(line);
        assertThat(m.find()).as("%s in %s", name, line).isTrue();
        return Long.parseLong(m.group(1));
    }

    private void pingpong(String command, int port, int size, String... extra) throws Exception {
        pingpong(command, port, size, 1, extra);
    }

    private void pingpong(String command, int port, int size, int qps, String... extra) throws Exception {
        int iters = 200;
        Path capture = dir.resolve(command + ".pcapng");
        List<String> common = List.of("-p", String.valueOf(port), "-n", String.valueOf(iters), "-s", String.valueOf(size), "-c");
        List<String> serverArgs = new java.util.ArrayList<>(List.of(command, "--addr", "127.0.1.1"));
        serverArgs.addAll(common);
        serverArgs.addAll(List.of(extra));
        try (ChildJrxe server = ChildJrxe.start(serverArgs.toArray(String[]::new))) {
            server.awaitLine(l -> l.startsWith("  local address:"), CHILD_SECONDS);
            List<String> clientArgs = new java.util.ArrayList<>(List.of(command, "--addr", "127.0.1.2", "-d", "jrxe-pp-client",
                    "--capture", capture.toString()));
            clientArgs.addAll(common);
            clientArgs.addAll(List.of(extra));
            clientArgs.add("127.0.1.1");
            InProcess client = InProcess.run(clientArgs.toArray(String[]::new));
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
            List<String> serverLines = server.stdoutLines();
            assertThat(serverLines).as("the server's data check passed").noneMatch(l -> l.startsWith("invalid data"));
            Address[][] s = checkRun(serverLines, size, iters, qps);
            Address[][] c = checkRun(client.lines(), size, iters, qps);
            for (int i = 0; i < qps; i++) {
                assertThat(s[0][i].gid()).isEqualTo("::ffff:127.0.1.1");
                assertThat(c[0][i].gid()).isEqualTo("::ffff:127.0.1.2");
                assertThat(c[1][i]).as("the client's remote is the server's local, QP by QP")
                        .isEqualTo(new Address("remote", s[0][i].qpn(), s[0][i].psn(), s[0][i].gid()));
                assertThat(s[1][i]).as("the server's remote is the client's local, QP by QP")
                        .isEqualTo(new Address("remote", c[0][i].qpn(), c[0][i].psn(), c[0][i].gid()));
            }
            if (List.of(extra).contains("--counters")) {
                // Exactly the run's messages each way: the device's warm-up, before it, is not the command's.
                assertThat(client.err()).as("the client's counters").startsWith("counters of jrxe-pp-client:");
                // With several QPs, each QP whose echo came back sends again while fewer than ITERS sends have
                // completed, so up to QPS - 1 more go out (as in ibv_srq_pingpong); their echoes are not awaited.
                assertThat(counter(client.err(), "rdma_sends")).isBetween((long) iters, (long) iters + qps - 1);
                assertThat(counter(client.err(), "rdma_recvs")).isBetween((long) iters, (long) iters + qps - 1);
            } else {
                assertThat(client.err()).isEmpty();
            }

            List<CapturedFrame> frames = CaptureReader.readAll(capture);
            assertThat(frames.size()).as("every message and its echo, as sent and received").isGreaterThanOrEqualTo(2 * iters);
            Dissector dissector = new Dissector();
            for (CapturedFrame f : frames) {
                assertThat(dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType()).icrcOk()).isTrue();
            }
        }
    }

    @Test
    void rcPingpongBetweenTwoJvmsWithDataCheck() throws Exception {
        pingpong("pingpong", 19101, 4096 + 1000, "--counters");
    }

    @Test
    void rcPingpongSleepingOnCompletionEvents() throws Exception {
        pingpong("pingpong", 19102, 64, "-e");
    }

    @Test
    void udPingpongBetweenTwoJvmsWithDataCheck() throws Exception {
        pingpong("ud-pingpong", 19103, 1024);
    }

    @Test
    void ucPingpongBetweenTwoJvmsWithDataCheck() throws Exception {
        // Several packets a message over UC: FIRST, MIDDLE, LAST with no ACK between them.
        pingpong("uc-pingpong", 19110, 4096 + 1000, "--counters");
    }

    @Test
    void srqPingpongWithFourQpsSharingOneSrq() throws Exception {
        pingpong("srq-pingpong", 19111, 1000, 4, "-q", "4", "--counters");
    }

    @Test
    void srqPingpongWithItsDefaultSixteenQps() throws Exception {
        pingpong("srq-pingpong", 19112, 64, 16, "-e");
    }

    @Test
    void theGidIndexPicksTheGidItSends() throws Exception {
        // Index 0 is the RoCE v1 entry of --addr: the same address, so the GID in the messages is the same.
        pingpong("pingpong", 19104, 256, "-g", "0");
    }
}
