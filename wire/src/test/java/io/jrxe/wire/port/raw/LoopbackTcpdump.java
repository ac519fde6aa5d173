package io.jrxe.wire.port.raw;

import io.jrxe.wire.testing.ExternalTool;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * tcpdump on the loopback interface, writing a capture file: the kernel's own record of what went
 * on the wire, not jrxe's. Bounded twice: it stops after {@code count} packets, and `timeout`
 * kills it after a deadline whatever happens.
 */
final class LoopbackTcpdump implements AutoCloseable {
    static final Path EXECUTABLE = Path.of("/usr/bin/tcpdump");
    private static final long LISTEN_WAIT_MILLIS = 10_000;

    private final Process process;
    private final Path stderr;

    private LoopbackTcpdump(Process process, Path stderr) {
        this.process = process;
        this.stderr = stderr;
    }

    static void assumeInstalled() {
        ExternalTool.assumeInstalled(EXECUTABLE, "tcpdump");
    }

    /**
     * Starts capturing and returns once tcpdump listens (it says so on stderr).
     * {@code -Z root}: tcpdump would otherwise drop to its own user, which cannot write to a test's directory.
     */
    static LoopbackTcpdump start(Path file, int count, String filter, long timeoutSeconds) throws IOException,
            InterruptedException {
        Path err = Files.createTempFile("jrxe-tcpdump", ".err");
        Process p = new ProcessBuilder(List.of("timeout", Long.toString(timeoutSeconds), EXECUTABLE.toString(), "-i", "lo",
                "-n", "-U", "-Z", "root", "-c", Integer.toString(count), "-w", file.toString(), filter))
                .redirectError(err.toFile()).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        LoopbackTcpdump dump = new LoopbackTcpdump(p, err);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(LISTEN_WAIT_MILLIS);
        while (!Files.readString(err).contains("listening on")) {
            if (!p.isAlive() || System.nanoTime() > deadline) {
                String said = Files.readString(err);
                dump.close();
                throw new AssertionError("tcpdump did not start listening: " + said);
            }
            Thread.sleep(20);
        }
        return dump;
    }

    /** Waits for tcpdump to have its packets and exit; fails with what it said otherwise. */
    void awaitCaptured(long timeoutSeconds) throws IOException, InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new AssertionError("tcpdump did not capture its packets: " + Files.readString(stderr));
        }
    }

    @Override
    public void close() throws IOException {
        process.destroyForcibly();
        Files.deleteIfExists(stderr);
    }
}
