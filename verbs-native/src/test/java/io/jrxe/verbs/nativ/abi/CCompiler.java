package io.jrxe.verbs.nativ.abi;

import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * gcc with rdma-core's headers as the oracle: compiles a small C program against the installed
 * verbs.h (or rdma_cma.h) and returns what it prints. A test is skipped, with the reason printed, when gcc or
 * the headers are missing.
 */
public final class CCompiler {
    public static final Path GCC = Path.of("/usr/bin/gcc");

    private CCompiler() {
    }

    /** gcc and {@code header}, from the Debian package {@code debianPackage}. */
    public static void assumeAvailable(Path header, String debianPackage) {
        ExternalTool.assumeInstalled(GCC, "gcc");
        boolean headers = Files.isRegularFile(header);
        if (!headers) {
            System.err.println("SKIPPED: " + header + " is missing (Debian package " + debianPackage + ")");
        }
        Assumptions.assumeTrue(headers, header + " is missing (Debian package " + debianPackage + ")");
    }

    /** Compiles and runs {@code source} (no linking against rdma-core: only the headers are needed). */
    public static String run(String source) {
        try {
            Path dir = Files.createTempDirectory("jrxe-cc");
            try {
                Path c = dir.resolve("probe.c");
                Path exe = dir.resolve("probe");
                Files.writeString(c, source);
                ExternalTool.runOk(List.of(GCC.toString(), "-std=gnu11", "-o", exe.toString(), c.toString()), 120);
                return ExternalTool.runOk(List.of(exe.toString()), 30);
            } finally {
                try (var files = Files.list(dir)) {
                    for (Path p : files.toList()) {
                        Files.deleteIfExists(p);
                    }
                }
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            throw new AssertionError("cannot write the C probe: " + e.getMessage(), e);
        }
    }
}
