package io.jrxe.wire.capture;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where the golden captures of real kernel rxe traffic are: the system property
 * {@value #PROPERTY} (surefire sets it), else the environment variable {@value #ENVIRONMENT},
 * else {@value #IN_REPOSITORY} under the repository root (for a test started from an IDE).
 * {@code testdata/rxe/README.md} says how they were recorded and what each holds. Beside it,
 * {@value #TRIXIE_FOLDER} holds the same set recorded from a later kernel (Debian 13's 6.12, its
 * RDMA CM captures in {@code cm/}), and {@value #SID_FOLDER} what Linux 7.2 sent with on-demand paging:
 * {@link #files()}, {@link #cmFiles()} and {@link #allFiles()} give every kernel's, {@link #file} and
 * {@link #cmFile} name Debian 12's.
 */
public final class GoldenCaptures {
    public static final String PROPERTY = "jrxe.golden.dir";
    public static final String ENVIRONMENT = "JRXE_GOLDEN_DIR";
    /** The folder that holds them, relative to the repository root. */
    public static final String IN_REPOSITORY = "testdata/rxe";
    /** The RDMA CM captures (testdata/rxe-cm/README.md): a folder of their own beside the data-path ones. */
    public static final String CM_FOLDER = "rxe-cm";
    /** Debian 13's set (testdata/rxe-trixie/README.md), next to {@link #directory()}; its CM captures in cm/. */
    public static final String TRIXIE_FOLDER = "rxe-trixie";
    /** Debian unstable's kernel 7.2 (testdata/rxe-sid/README.md), next to {@link #directory()}. */
    public static final String SID_FOLDER = "rxe-sid";

    private GoldenCaptures() {
    }

    public static Path directory() {
        String configured = System.getProperty(PROPERTY);
        if (configured == null || configured.isBlank()) {
            configured = System.getenv(ENVIRONMENT);
        }
        Path directory = configured != null && !configured.isBlank()
                ? Path.of(configured)
                : repositoryRoot().resolve(IN_REPOSITORY);
        directory = directory.toAbsolutePath().normalize();
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("golden captures not found at " + directory + ": set -D" + PROPERTY
                    + " or " + ENVIRONMENT + " to the folder that holds them");
        }
        return directory;
    }

    /** Debian 13's data-path captures, recorded as {@link #directory()}'s were, from kernel 6.12. */
    public static Path trixieDirectory() {
        Path directory = directory().resolveSibling(TRIXIE_FOLDER);
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("the golden captures of Debian 13's kernel rxe are not at " + directory);
        }
        return directory;
    }

    /** Debian unstable's data-path captures, from kernel 7.2. */
    public static Path sidDirectory() {
        Path directory = directory().resolveSibling(SID_FOLDER);
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("the golden captures of Linux 7.2's kernel rxe are not at " + directory);
        }
        return directory;
    }

    /** Debian 12's kernel rxe with faults (testdata/rxe-faults/README.md): not clean runs, so in none of the lists. */
    public static Path faultsDirectory() {
        Path directory = directory().resolveSibling("rxe-faults");
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("the captures of kernel rxe with faults are not at " + directory);
        }
        return directory;
    }

    /** Every data-path golden capture (*.pcap): Debian 12's, 13's, then unstable's, each sorted by name; never empty. */
    public static List<Path> files() {
        return concat(concat(pcaps(directory()), pcaps(trixieDirectory())), pcaps(sidDirectory()));
    }

    /** The folder of the RDMA CM captures, next to {@link #directory()}. */
    public static Path cmDirectory() {
        Path directory = directory().resolveSibling(CM_FOLDER);
        if (!Files.isDirectory(directory)) {
            throw new IllegalStateException("RDMA CM golden captures not found at " + directory);
        }
        return directory;
    }

    /** Every RDMA CM golden capture (*.pcap): Debian 12's, then Debian 13's, each sorted by name; never empty. */
    public static List<Path> cmFiles() {
        return concat(pcaps(cmDirectory()), pcaps(trixieDirectory().resolve("cm")));
    }

    /** The data-path captures and the RDMA CM ones: for checks that hold for every RoCE packet. */
    public static List<Path> allFiles() {
        return concat(files(), cmFiles());
    }

    /** One of Debian 13's data-path captures by file name. */
    public static Path trixieFile(String name) {
        return fileIn(trixieDirectory(), name);
    }

    private static List<Path> concat(List<Path> first, List<Path> second) {
        List<Path> all = new ArrayList<>(first);
        all.addAll(second);
        return List.copyOf(all);
    }

    /** One RDMA CM golden capture by file name, e.g. {@code cm_rping_v4.pcap}. */
    public static Path cmFile(String name) {
        return fileIn(cmDirectory(), name);
    }

    private static List<Path> pcaps(Path directory) {
        try (Stream<Path> entries = Files.list(directory)) {
            List<Path> files = entries.filter(p -> p.getFileName().toString().endsWith(".pcap")).sorted().toList();
            if (files.isEmpty()) {
                throw new IllegalStateException("no *.pcap golden captures in " + directory);
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + directory, e);
        }
    }

    /** One golden capture by file name, e.g. {@code guest_pingpong.pcap}. */
    public static Path file(String name) {
        return fileIn(directory(), name);
    }

    private static Path fileIn(Path directory, String name) {
        Path file = directory.resolve(name);
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no golden capture " + name + " in " + file.getParent());
        }
        return file;
    }

    // The repository root is the first folder upwards with the Maven wrapper: tests run in a module folder.
    private static Path repositoryRoot() {
        Path start = Path.of("").toAbsolutePath();
        for (Path p = start; p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("mvnw")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("cannot find the jrxe repository root above " + start
                + ": set -D" + PROPERTY + " or " + ENVIRONMENT);
    }
}
