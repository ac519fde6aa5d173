package io.jrxe.tools.decode;

import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.ExternalTool;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe decode` in a JVM of its own, started the way the ./jrxe launcher starts it (with
 * --enable-native-access, through JrxeMain.main): libpcap loads without the JVM's restricted-method
 * warning, System.exit carries the exit status, and stdout gets flushed before the JVM ends.
 * (The launcher's jar does not exist yet while tools' unit tests run, so the test classpath stands in.)
 */
class DecodeProcessTest {
    private static final long TIMEOUT_SECONDS = 120;

    private static ExternalTool.Result jrxe(String... args) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"), "io.jrxe.tools.JrxeMain"));
        command.addAll(List.of(args));
        return ExternalTool.run(command, TIMEOUT_SECONDS);
    }

    @Test
    void decodesAGoldenCaptureInItsOwnJvm() {
        Path file = GoldenCaptures.file("guest_atomic_fadd.pcap");
        int frames = IndependentPcap.frames(file).size();
        ExternalTool.Result r = jrxe("decode", "--verify-icrc", file.toString());
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stderr()).as("no JVM warning (restricted method, Unsafe), no logging noise").isEmpty();
        List<String> lines = r.stdout().lines().toList();
        assertThat(lines).hasSize(frames + 1);
        assertThat(lines.getLast()).isEqualTo(DecodeCommandTest.totals(frames, frames, frames, 0, 0));
    }

    @Test
    void exitStatusesReachTheShell(@TempDir Path dir) {
        Random random = new Random(5);
        List<byte[]> frames = new ArrayList<>();
        frames.add(SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 32, random), "10.0.0.1", "10.0.0.2", 49152, 1));
        byte[] bad = SamplePackets.frame(SamplePackets.roce(Opcode.RC_SEND_ONLY, 32, random), "10.0.0.1", "10.0.0.2", 49152, 2);
        bad[bad.length - 1] ^= 0x01; // the ICRC itself
        frames.add(bad);
        Path capture = DecodeCommandTest.write(dir.resolve("bad.pcapng"), LinkType.ETHERNET, frames);

        ExternalTool.Result verify = jrxe("decode", "--verify-icrc", capture.toString());
        assertThat(verify.exitCode()).as(verify.stderr()).isEqualTo(1);
        assertThat(verify.stdout().lines().toList()).last().isEqualTo(DecodeCommandTest.totals(2, 2, 1, 1, 0));

        ExternalTool.Result missing = jrxe("decode", dir.resolve("missing.pcap").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.stderr().lines().toList()).containsExactly("jrxe decode: no such file: " + dir.resolve("missing.pcap"));

        ExternalTool.Result usage = jrxe("decode", "--no-such-option", capture.toString());
        assertThat(usage.exitCode()).isEqualTo(1);
        assertThat(usage.stderr().lines().toList()).containsExactly(
                "jrxe decode: Unknown option: '--no-such-option' (see 'jrxe decode --help')");
    }
}
