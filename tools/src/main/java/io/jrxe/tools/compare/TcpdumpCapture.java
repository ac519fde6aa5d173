package io.jrxe.tools.compare;

import io.jrxe.tools.UserError;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * tcpdump writing the RoCE packets of one interface (UDP port 4791) to a temporary file while a setup runs: how the
 * packets of a kernel device are seen. It is started before the run and counts as ready when it says it listens;
 * stopping it (SIGTERM) makes it finish the file, which is then read like any capture.
 */
final class TcpdumpCapture implements PacketSource {
    private static final long READY_SECONDS = 10;
    private final Process process;
    private final Path file;
    private final LinkedBlockingQueue<String> stderr = new LinkedBlockingQueue<>();

    private TcpdumpCapture(Process process, Path file) {
        this.process = process;
        this.file = file;
    }

    /** Starts tcpdump on {@code iface}; a one-line error when it is missing or refuses. */
    static TcpdumpCapture start(String iface) {
        Path file;
        Process p;
        try {
            file = Files.createTempFile("jrxe-compare-", ".pcap");
            // Immediate mode: without it libpcap hands packets over a buffer at a time (or after a second), and those
            // still in the kernel's buffer when tcpdump is stopped are lost. Whole packets: a cut one is malformed.
            p = new ProcessBuilder("tcpdump", "-i", iface, "--immediate-mode", "-U", "-n", "-w", file.toString(),
                    "udp port 4791")
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UserError("--tcpdump " + iface + ": cannot run tcpdump (" + e.getMessage() + "; Debian: tcpdump)", e);
        }
        TcpdumpCapture c = new TcpdumpCapture(p, file);
        Thread.ofVirtual().start(c::readStderr);
        c.awaitListening(iface);
        return c;
    }

    private void readStderr() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                stderr.add(line);
            }
        } catch (IOException e) {
            stderr.add("(its output could not be read: " + e.getMessage() + ")");
        }
        stderr.add("");
    }

    private void awaitListening(String iface) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
        StringBuilder said = new StringBuilder();
        while (System.nanoTime() < deadline) {
            String line;
            try {
                line = stderr.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (line == null || line.isEmpty() && !process.isAlive()) {
                break;
            }
            if (line.contains("listening on")) {
                return;
            }
            said.append(line.strip()).append(' ');
        }
        process.destroyForcibly();
        throw new UserError("--tcpdump " + iface + ": tcpdump did not start listening" + (said.isEmpty() ? ""
                : ": " + said.toString().strip()));
    }

    @Override
    public Seen collect() {
        settle();
        stop();
        return new Seen(PacketSource.read(file), null);
    }

    /**
     * Waits until tcpdump has written what it has seen: until its file has not grown for a quarter of a second (at
     * most 3 s). Stopped earlier, it would drop the packets it had read but not yet written.
     */
    private void settle() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        long quietSince = System.nanoTime();
        long size = -1;
        while (process.isAlive() && System.nanoTime() < deadline
                && System.nanoTime() - quietSince < TimeUnit.MILLISECONDS.toNanos(250)) {
            long now = file.toFile().length();
            if (now != size) {
                size = now;
                quietSince = System.nanoTime();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    private void stop() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a temporary file left behind
        }
    }
}
