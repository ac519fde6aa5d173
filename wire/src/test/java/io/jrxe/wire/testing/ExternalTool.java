package io.jrxe.wire.testing;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a tool nobody here wrote (tshark, scapy's python) as an oracle, bounded in time. A test
 * whose tool is missing is skipped with the reason printed; CI installs every tool, so there
 * nothing is skipped.
 */
public final class ExternalTool {
    public static final Path TSHARK = Path.of("/usr/bin/tshark");
    /** Debian's python, where python3-scapy installs scapy (a pyenv python on PATH would not have it). */
    public static final Path DEBIAN_PYTHON = Path.of("/usr/bin/python3");

    private ExternalTool() {
    }

    public record Result(int exitCode, String stdout, String stderr) {
    }

    /** Skips the calling test, printing why, when the tool is not installed. */
    public static void assumeInstalled(Path tool, String debianPackage) {
        boolean present = Files.isExecutable(tool);
        if (!present) {
            System.err.println("SKIPPED: " + tool + " is not installed (Debian package " + debianPackage + ")");
        }
        Assumptions.assumeTrue(present, tool + " is not installed (Debian package " + debianPackage + ")");
    }

    /** Skips the calling test, printing why, when Debian's python has no scapy. */
    public static void assumeScapy() {
        assumeInstalled(DEBIAN_PYTHON, "python3");
        Result r = run(List.of(DEBIAN_PYTHON.toString(), "-c", "import scapy.contrib.roce"), 60);
        if (r.exitCode() != 0) {
            System.err.println("SKIPPED: scapy's RoCE layer is not importable (Debian package python3-scapy)");
        }
        Assumptions.assumeTrue(r.exitCode() == 0, "scapy's RoCE layer is not importable (Debian package python3-scapy)");
    }

    /** Skips without scapy; otherwise copies the scapy ICRC oracle (scapy_icrc.py) into dir and returns its path. */
    public static Path scapyIcrcScript(Path dir) {
        assumeScapy();
        Path script = dir.resolve("scapy_icrc.py");
        try (java.io.InputStream in = ExternalTool.class.getResourceAsStream("/scapy_icrc.py")) {
            Files.copy(in, script, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new AssertionError("cannot install scapy_icrc.py: " + e.getMessage(), e);
        }
        return script;
    }

    public static Result run(List<String> command, long timeoutSeconds) {
        try {
            Path out = Files.createTempFile("jrxe-tool", ".out");
            Path err = Files.createTempFile("jrxe-tool", ".err");
            try {
                Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                p.getOutputStream().close();
                if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    throw new AssertionError(command + " did not finish within " + timeoutSeconds + " s");
                }
                return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new AssertionError("could not run " + command + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while running " + command, e);
        }
    }

    /** Runs the tool and fails the test unless it exits 0. */
    public static String runOk(List<String> command, long timeoutSeconds) {
        Result r = run(command, timeoutSeconds);
        if (r.exitCode() != 0) {
            throw new AssertionError(command + " exited " + r.exitCode() + ": " + r.stderr());
        }
        return r.stdout();
    }
}
