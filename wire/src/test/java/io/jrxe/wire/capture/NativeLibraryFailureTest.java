package io.jrxe.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * When captures cannot be read (no Pcap4J on the class path, Pcap4J unable to load libpcap, native access
 * denied), the user reads what to add, install or allow, not a stack trace. Each case runs in its own JVM
 * because a native library that failed to load stays failed for the JVM's life.
 */
class NativeLibraryFailureTest {
    @TempDir
    Path temp;

    @Test
    void aWorkingSetupReadsTheCaptureQuietly() throws Exception {
        ChildRun run = runChild(List.of("--enable-native-access=ALL-UNNAMED"));
        assertThat(run.stdout()).isEqualTo("frames: 40");
        assertThat(run.stderr()).as("no slf4j or native-access noise").isEmpty();
    }

    @Test
    void missingLibpcapSaysWhichPackageToInstall() throws Exception {
        // Pcap4J's own switch for the library's name: point it at one that does not exist.
        ChildRun run = runChild(List.of("--enable-native-access=ALL-UNNAMED",
                "-Dorg.pcap4j.core.pcapLibName=jrxe-test-no-such-libpcap"));
        assertThat(run.stdout()).isEqualTo("reading captures needs libpcap: install the Debian package libpcap0.8 (macOS has it;"
                + " on Windows, install Npcap)");
        assertThat(run.stderr()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    @Test
    void missingPcap4jSaysWhichDependencyToAdd() throws Exception {
        String withoutPcap4j = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .filter(entry -> !entry.contains("pcap4j")).collect(Collectors.joining(File.pathSeparator));
        assertThat(withoutPcap4j).isNotEqualTo(System.getProperty("java.class.path"));
        ChildRun run = runChild(List.of("--enable-native-access=ALL-UNNAMED"), withoutPcap4j);
        assertThat(run.stdout()).isEqualTo("reading captures needs Pcap4J on the class path: org.pcap4j:pcap4j-core "
                + "(an optional dependency of jrxe-wire)");
        assertThat(run.stderr()).isEmpty();
    }

    @Test
    void deniedNativeAccessSaysHowToAllowIt() throws Exception {
        ChildRun run = runChild(List.of("--illegal-native-access=deny"));
        assertThat(run.stdout())
                .isEqualTo("reading captures needs native access: run Java with --enable-native-access=ALL-UNNAMED");
        assertThat(run.stderr()).doesNotContain("\tat ").doesNotContain("Exception");
    }

    private record ChildRun(String stdout, String stderr) {
    }

    private ChildRun runChild(List<String> jvmOptions) throws IOException, InterruptedException {
        return runChild(jvmOptions, System.getProperty("java.class.path"));
    }

    private ChildRun runChild(List<String> jvmOptions, String classPath) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(classPath);
        command.add(OpenCaptureMain.class.getName());
        command.add(GoldenCaptures.file("guest_atomic_fadd.pcap").toString());
        Path out = temp.resolve("child.out");
        Path err = temp.resolve("child.err");
        Process child = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!child.waitFor(60, TimeUnit.SECONDS)) {
            child.destroyForcibly();
            throw new AssertionError("the child JVM did not finish within 60 s: " + command);
        }
        assertThat(child.exitValue()).as("child exit status; stderr: %s", Files.readString(err)).isZero();
        return new ChildRun(Files.readString(out, StandardCharsets.UTF_8).strip(),
                Files.readString(err, StandardCharsets.UTF_8).strip());
    }
}
