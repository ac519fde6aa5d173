package io.jrxe.tools.conformance;

import io.jrxe.tools.common.BadOptionAnswer;
import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.port.shm.ShmDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe conformance --wire shm`: the whole table against the in-process target on the shared-memory wire, rings in
 * the test's own directory (every case passes or is skipped with its reason, and no ring is left); the runner over
 * the shared-memory carriage still fails a case whose expectation is wrong; --wire shm with --target is refused.
 */
class ConformanceShmTest {
    private static final long LIMIT_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void everyCasePassesOrIsSkippedWithItsReasonOverSharedMemory() throws Exception {
        Path rings = dir.resolve("rings");
        List<String> lines;
        try (ChildJrxe child = ChildJrxe.startIn(List.of(), List.of("-Djrxe.shm.dir=" + rings), "conformance", "--wire", "shm",
                "--addr", "127.0.73.2")) {
            int status = child.waitFor(LIMIT_SECONDS);
            lines = child.stdoutLines();
            assertThat(status).as("%s%s", child.stderr(), lines).isZero();
        }
        String out = String.join("\n", lines);
        List<String> rows = lines.stream().filter(l -> l.matches("^(PASS|FAIL|SKIP) .*")).toList();
        assertThat(rows).as(out).hasSize(CaseTable.all().size())
                .allMatch(l -> l.startsWith("PASS") || l.startsWith("SKIP") && l.matches(".*  \\(.+\\)$"));
        long passed = rows.stream().filter(l -> l.startsWith("PASS")).count();
        assertThat(passed).as(out).isGreaterThanOrEqualTo(60);
        assertThat(lines.getLast()).isEqualTo(String.format("conformance: %d cases, %d passed, 0 failed, %d skipped",
                rows.size(), passed, rows.size() - passed));
        assertThat(out).contains("in this process on " + ConformanceCommand.TARGET_ADDRESS + " (shared-memory wire)",
                "transmit: shared-memory rings in " + rings);
        assertThat(rows).anyMatch(l -> l.startsWith("PASS  SRC-01")).anyMatch(l -> l.startsWith("PASS  HDR-13"));
        try (Stream<Path> left = Files.list(rings)) {
            assertThat(left).as("the target and the tester remove their rings as they close").isEmpty();
        }
    }

    /** Answers come back through the tester's ring: an ACK expected where the target NAKs fails, over shared memory too. */
    @Test
    void aWrongExpectationFailsOverSharedMemory() throws IOException {
        ShmDirectory rings = new ShmDirectory(dir);
        PeerAddress self = PeerAddress.of("127.0.73.4");
        PeerAddress third = PeerAddress.of("127.0.73.5");
        try (InProcessTarget target = new InProcessTarget(InetAddress.getByName(ConformanceCommand.TARGET_ADDRESS), rings);
             TesterPort port = new TesterPort(self, third, new ShmCarriage(rings, self, third), false, new PacketLog(null))) {
            CaseRunner runner = new CaseRunner(target, port, self.gid(), 100);
            CaseResult r = runner.run(ConformanceCase.of("T-2", "t", "wrong expectation", Reference.IBTA)
                    .step(PsnCases.write8(0).key(KeyChoice.BOGUS), Expect.ack(0)).build());
            assertThat(r.verdict()).isEqualTo(CaseResult.Verdict.FAIL);
            assertThat(r.problem()).isEqualTo("NAK remote access error instead of ACK credits=invalid");
            assertThat(port.path()).startsWith("shared-memory rings in " + dir);
        }
    }

    @Test
    void sharedMemoryWithARemoteTargetOrAnUnknownWireIsRefusedInOneLine() {
        BadOptionAnswer.check(InProcess.run("conformance", "--wire", "shm", "--target", "127.0.73.9:18630"), "conformance",
                "--wire shm", "--target");
        BadOptionAnswer.check(InProcess.run("conformance", "--wire", "carrier-pigeon"), "conformance",
                "--wire carrier-pigeon", "udp or shm");
    }
}
