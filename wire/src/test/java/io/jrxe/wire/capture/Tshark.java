package io.jrxe.wire.capture;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs Wireshark's tshark on a capture and returns the fields it decodes, frame by frame: the
 * independent judge of what jrxe writes. Tests that need it are skipped, with the reason printed,
 * where it is not installed; CI installs it.
 */
public final class Tshark {
    public static final Path EXECUTABLE = Path.of("/usr/bin/tshark");
    /** Wireshark's tool that joins captures, from the same package as tshark. */
    private static final Path MERGECAP = Path.of("/usr/bin/mergecap");
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

    /**
     * How many frames from {@code source} (an IP address as tshark prints it) carry an AETH whose syndrome is in
     * [{@code from}, {@code to}): 0x20 to 0x40 are RNR NAKs, 0x60 to 0x80 NAKs, 0x60 the PSN sequence error.
     */
    public static long aethSyndromes(Path capture, String source, int from, int to) {
        return fields(capture, "ip.src", "infiniband.aeth.syndrome").stream()
                .filter(row -> row.get(0).equals(source) && !row.get(1).isEmpty())
                .mapToInt(row -> Integer.decode(row.get(1)))
                .filter(syndrome -> syndrome >= from && syndrome < to)
                .count();
    }

    /**
     * {@link #fields} of every capture, one after another in one list, from a single tshark run over the captures
     * joined end to end by mergecap (into a pcapng, which keeps each one's link type): one tshark start instead of
     * one per file. Without mergecap, tshark runs once per capture.
     */
    public static List<List<String>> fieldsOfAll(List<Path> captures, Path scratch, String... fieldNames) {
        if (!Files.isExecutable(MERGECAP)) {
            List<List<String>> rows = new ArrayList<>();
            for (Path capture : captures) {
                rows.addAll(fields(capture, fieldNames));
            }
            return rows;
        }
        Path joined = scratch.resolve("joined.pcapng");
        List<String> command = new ArrayList<>(List.of(MERGECAP.toString(), "-a", "-F", "pcapng", "-w", joined.toString()));
        captures.forEach(c -> command.add(c.toString()));
        io.jrxe.wire.testing.ExternalTool.Result r = io.jrxe.wire.testing.ExternalTool.run(command, TIMEOUT_SECONDS);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("mergecap exited with " + r.exitCode() + ": " + r.stderr().strip());
        }
        return fields(joined, fieldNames);
    }

    /** Runs tshark through the shared runner (files, not pipes, and a timeout); fails unless it exits 0. */
    private static List<String> run(List<String> command) {
        io.jrxe.wire.testing.ExternalTool.Result r = io.jrxe.wire.testing.ExternalTool.run(command, TIMEOUT_SECONDS);
        if (r.exitCode() != 0) {
            throw new IllegalStateException("tshark exited with " + r.exitCode() + ": " + r.stderr().strip() + " (" + command + ")");
        }
        return r.stdout().lines().toList();
    }
}
