package io.jrxe.tools.common;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * `jrxe ...` in a JVM of its own, started as the launcher starts it. Its stdout is read line by line as it
 * comes, so a test can wait for a server to say it is ready (its "local address" line) instead of sleeping;
 * every wait has a deadline, and close() kills the child if it is still running.
 */
public final class ChildJrxe implements AutoCloseable {
    private static final String END = "\u0000end";
    /** The environment variable that gives --warmup's default to the perftest and pingpong commands. */
    private static final String WARMUP_ENV = "JRXE_WARMUP_MS";

    private final Process process;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final List<String> stdout = new ArrayList<>();
    private final StringBuilder stderr = new StringBuilder();
    private final Thread errReader;

    private ChildJrxe(Process process) {
        this.process = process;
        Thread outReader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child went away; END below
            } finally {
                lines.add(END);
            }
        });
        errReader = Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    synchronized (stderr) {
                        stderr.append(line).append('\n');
                    }
                }
            } catch (IOException e) {
                // the child went away
            }
        });
        assert outReader.isDaemon();
    }

    public static ChildJrxe start(String... args) {
        return startIn(List.of(), args);
    }

    /** `jrxe ARGS` under a command that runs it elsewhere ({@code ip netns exec NAME}); no prefix: as start. */
    public static ChildJrxe startIn(List<String> prefix, String... args) {
        return startIn(prefix, List.of(), args);
    }

    /** `jrxe ARGS` in a JVM with these options besides the launcher's (-Djrxe.portable=true, ...), under the prefix. */
    public static ChildJrxe startIn(List<String> prefix, List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>(prefix);
        command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:TieredStopAtLevel=1"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "io.jrxe.tools.JrxeMain"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        // These tests check what the commands do, not how fast: no JIT warm-up before the peers meet (its few rounds
        // still run), unless the test's own environment asks for one. A test that measures passes --warmup itself.
        builder.environment().putIfAbsent(WARMUP_ENV, "0");
        try {
            return new ChildJrxe(builder.start());
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command, e);
        }
    }

    /** The child's process id. */
    public long pid() {
        return process.pid();
    }

    /** Kills the child as {@code kill -9} does (SIGKILL: no shutdown hook, no goodbye to its peers) and waits for it. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Reads stdout until a line matches; fails when the child ends or the timeout passes first. */
    public String awaitLine(Predicate<String> matches, long timeoutSeconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (true) {
            long left = deadline - System.nanoTime();
            String line = left > 0 ? lines.poll(left, TimeUnit.NANOSECONDS) : null;
            if (line == null) {
                throw new AssertionError("no matching line from the child within " + timeoutSeconds + " s; stdout so far: "
                        + stdout + "; stderr: " + stderr());
            }
            if (line.equals(END)) {
                lines.add(END);
                throw new AssertionError("the child ended without the line; stdout: " + stdout + "; stderr: " + stderr());
            }
            stdout.add(line);
            if (matches.test(line)) {
                return line;
            }
        }
    }

    /** Waits for the child to end (killing it after the timeout) and returns its exit status. */
    public int waitFor(long timeoutSeconds) throws InterruptedException {
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError("the child did not end within " + timeoutSeconds + " s; stdout: " + stdoutLines()
                    + "; stderr: " + stderr());
        }
        return process.exitValue();
    }

    /** Every stdout line so far (after waitFor: all of them). */
    public List<String> stdoutLines() throws InterruptedException {
        String line;
        while ((line = lines.poll(process.isAlive() ? 0 : 5, TimeUnit.SECONDS)) != null) {
            if (line.equals(END)) {
                lines.add(END);
                break;
            }
            stdout.add(line);
        }
        return List.copyOf(stdout);
    }

    /** What the child wrote to stderr, without the host's notices ({@link HostNotices}). */
    public String stderr() {
        return HostNotices.without(rawStderr());
    }

    /** Everything the child wrote to stderr so far (all of it once the child has ended). */
    public String rawStderr() {
        if (!process.isAlive()) {
            try {
                errReader.join(5000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        synchronized (stderr) {
            return stderr.toString();
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
