package io.jrxe.wire.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs Wireshark's tshark on a capture and returns the fields it decodes, frame by frame: the
 * independent judge of what jrxe writes. Tests that need it are skipped, with the reason printed,
 * where it is not installed; CI installs it.
 */
public final class Tshark {
    public static final Path EXECUTABLE = Path.of("/usr/bin/tshark");
    private static final long TIMEOUT_SECONDS = 120;

    private Tshark() {
    }

    public static void assumeInstalled() {
        if (!Files.isExecutable(EXECUTABLE)) {
            String reason = EXECUTABLE + " is missing (Debian: apt-get install tshark), so this test is skipped";
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
    }

    /**
     * One row per frame, one column per field, as {@code tshark -T fields} prints them (an absent
     * field is an empty string).
     */
    public static List<List<String>> fields(Path capture, String... fieldNames) {
        List<String> command = new ArrayList<>(List.of(EXECUTABLE.toString(), "-r", capture.toString(), "-n",
                "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"));
        for (String field : fieldNames) {
            command.add("-e");
            command.add(field);
        }
        List<List<String>> rows = new ArrayList<>();
        for (String line : run(command)) {
            List<String> row = List.of(line.split("\t", -1));
            if (row.size() != fieldNames.length) {
                throw new IllegalStateException("tshark printed " + row.size() + " fields instead of "
                        + fieldNames.length + " in: " + line);
            }
            rows.add(row);
        }
        return rows;
    }

    // Output goes to files, not pipes, so a tshark that hangs cannot block the test past the timeout.
    private static List<String> run(List<String> command) {
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("tshark", ".out");
            err = Files.createTempFile("tshark", ".err");
            Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException("tshark did not finish within " + TIMEOUT_SECONDS + " s: " + command);
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException("tshark exited with " + process.exitValue() + ": "
                        + Files.readString(err, StandardCharsets.UTF_8).strip() + " (" + command + ")");
            }
            return Files.readAllLines(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + command, e);
        } finally {
            deleteQuietly(out);
            deleteQuietly(err);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A temp file left behind is harmless.
            }
        }
    }
}
