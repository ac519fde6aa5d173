package io.jrxe.it.interop;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A process whose output (stdout and stderr together) is collected as it comes, with a bounded
 * wait for its end: a guest command through {@code lab.sh run}, or jrxe in the lab's namespace.
 */
final class Job implements AutoCloseable {
    private final String name;
    private final Process process;
    private final StringBuilder output = new StringBuilder();
    private final Thread reader;

    private Job(String name, Process process) {
        this.name = name;
        this.process = process;
        this.reader = Thread.ofVirtual().name("output of " + name).start(this::collect);
    }

    static Job start(String name, List<String> command) {
        return start(name, command, Map.of());
    }

    /** As above, with {@code environment} added to this JVM's for the process. */
    static Job start(String name, List<String> command, Map<String, String> environment) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().putAll(environment);
            return new Job(name, builder.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + command, e);
        }
    }

    private void collect() {
        byte[] buffer = new byte[8192];
        try (InputStream in = process.getInputStream()) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                synchronized (output) {
                    output.append(new String(buffer, 0, n, StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            synchronized (output) {
                output.append("\n[output unreadable: ").append(e.getMessage()).append(']');
            }
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String output() {
        synchronized (output) {
            return output.toString();
        }
    }

    /**
     * Waits until the output so far contains {@code text} (polling it); fails when the job ends
     * without it or {@code limit} passes first.
     */
    void awaitOutput(String text, Duration limit) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        for (int poll = 0; poll < 10_000 && System.nanoTime() < deadline; poll++) {
            if (output().contains(text)) {
                return;
            }
            if (!process.isAlive()) {
                reader.join(Duration.ofSeconds(5));
                if (output().contains(text)) {
                    return;
                }
                throw new AssertionError(name + " ended without printing \"" + text + "\":\n" + output());
            }
            Thread.sleep(50);   // between looks at the output only
        }
        throw new AssertionError(name + " did not print \"" + text + "\" within " + limit.toSeconds() + " s:\n" + output());
    }

    /**
     * Asks the process to end (SIGTERM: tcpdump then writes out what it holds and its totals) and
     * waits for that, as {@link #await} does. Through its ProcessHandle: Process.destroy would
     * also close the pipe, losing what the process says as it ends.
     */
    Result stop(Duration limit) throws InterruptedException {
        process.toHandle().destroy();
        return await(limit);
    }

    /** Whether the job ends within {@code limit}; one still running is left running. */
    boolean endsWithin(Duration limit) throws InterruptedException {
        return process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Waits for the end; a job still running after {@code limit} is killed and reported. */
    Result await(Duration limit) throws InterruptedException {
        if (!process.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            reader.join(Duration.ofSeconds(5));
            throw new AssertionError(name + " did not finish within " + limit.toSeconds() + " s; its output:\n" + output());
        }
        reader.join(Duration.ofSeconds(10));
        return new Result(name, process.exitValue(), output());
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }

    record Result(String name, int exitCode, String output) {
        @Override
        public String toString() {
            return name + " exited " + exitCode + ":\n" + output;
        }
    }
}
