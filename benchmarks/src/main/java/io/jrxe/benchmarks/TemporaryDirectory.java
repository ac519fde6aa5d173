package io.jrxe.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** The directories the ring benchmarks make for their ring files, removed with everything in them at tear-down. */
final class TemporaryDirectory {
    private TemporaryDirectory() {
    }

    /** Deletes {@code directory} and everything under it, deepest first. */
    static void delete(Path directory) throws IOException {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
