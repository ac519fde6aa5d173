package io.jrxe.wire.port.raw;

import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.ExternalTool;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Without CAP_NET_RAW a port sends IPv4 through UDP sockets and says so: with an opener that
 * fails as socket(2) does (EPERM), and for real in a JVM running as nobody.
 */
class TransmitFallbackTest {
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");
    private static final String UDP_LINE =
            "IPv4 transmit: UDP socket (no CAP_NET_RAW): IPv4 peers other than jrxe will drop its packets";

    private static final Set<PosixFilePermission> READABLE_DIRECTORY = PosixFilePermissions.fromString("rwxr-xr-x");
    private static final Set<PosixFilePermission> READABLE_FILE = PosixFilePermissions.fromString("rw-r--r--");

    @TempDir
    Path dir;

    @Test
    void aDeniedRawSocketLeavesTheUdpPathWhichStillCarriesPackets() throws Exception {
        Random random = new Random(3);
        List<byte[]> packets = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            packets.add(SamplePackets.roce(Opcode.RC_SEND_ONLY, 64 * i, random));
        }
        try (LoopbackPorts ports = LoopbackPorts.open("127.0.3.5", "127.0.3.6", RawSocketOpener.denied())) {
            TransmitPath path = ports.a.transmitPath();
            assertThat(path.kind()).isEqualTo(TransmitPath.Kind.UDP_IPV4);
            assertThat(path.kernelPeersAccept()).isFalse();
            assertThat(path.describe()).isEqualTo(UDP_LINE);

            ports.send(packets, 4791);
            assertThat(ports.awaitReceived(packets.size(), 10_000)).hasSize(packets.size());
            assertThat(ports.drops()).isEmpty();
        }
    }

    @Test
    void otherFailuresAreNamed() {
        TransmitPath path = TransmitPath.probe(false, () -> {
            throw new RawSocketUnavailableException(24, "raw socket: Too many open files");
        });
        assertThat(path.describe()).isEqualTo("IPv4 transmit: UDP socket (raw socket: Too many open files): "
                + "IPv4 peers other than jrxe will drop its packets");
        assertThat(TransmitPath.probe(true, RawSocketOpener.denied()).describe())
                .isEqualTo("IPv6 transmit: UDP socket (every byte the ICRC covers is known)");
    }

    @Test
    void theSystemPropertyTurnsTheRawPathOff() {
        String before = System.getProperty(RawSocketOpener.PROPERTY);
        System.setProperty(RawSocketOpener.PROPERTY, "udp");
        try {
            TransmitPath path = TransmitPath.probe(false, RawSocketOpener.system());
            assertThat(path.kind()).isEqualTo(TransmitPath.Kind.UDP_IPV4);
            assertThat(path.reason()).isEqualTo("-Djrxe.ipv4.transmit=udp");
        } finally {
            if (before == null) {
                System.clearProperty(RawSocketOpener.PROPERTY);
            } else {
                System.setProperty(RawSocketOpener.PROPERTY, before);
            }
        }
    }

    /** The real thing: a JVM as nobody (no capabilities) binds a port and reports the UDP path. */
    @Test
    void aJvmRunningAsNobodyUsesTheUdpPathAndSaysSo() throws IOException {
        boolean root = "root".equals(System.getProperty("user.name"));
        if (!root || !Files.isExecutable(SETPRIV)) {
            String reason = "running a JVM as nobody needs root and " + SETPRIV;
            System.out.println("SKIPPED: " + reason);
            Assumptions.abort(reason);
        }
        List<String> command = new ArrayList<>(List.of(SETPRIV.toString(), "--reuid=nobody", "--regid=nogroup",
                "--clear-groups", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", classPathNobodyCanRead(), TransmitPathMain.class.getName(),
                "127.0.3.7"));
        ExternalTool.Result r = ExternalTool.run(command, 60);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout().lines().toList()).containsExactly("port: " + UDP_LINE, "probe: " + UDP_LINE);
    }

    /**
     * The test class path copied where nobody can read it: root's Maven repository (the jars)
     * and the checkout (the classes) may be private to root.
     */
    private String classPathNobodyCanRead() throws IOException {
        Path copies = dir.resolve("classpath");
        Files.createDirectories(copies);
        Files.setPosixFilePermissions(dir, READABLE_DIRECTORY);
        List<String> entries = new ArrayList<>();
        int n = 0;
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path from = Path.of(entry);
            if (!Files.exists(from)) {
                continue;
            }
            Path to = copies.resolve(n++ + "-" + from.getFileName());
            try (Stream<Path> tree = Files.walk(from)) {
                for (Path p : (Iterable<Path>) tree::iterator) {
                    Path target = to.resolve(from.relativize(p).toString());
                    Files.copy(p, target);
                }
            }
            entries.add(to.toString());
        }
        try (Stream<Path> tree = Files.walk(copies)) {
            for (Path p : (Iterable<Path>) tree::iterator) {
                Files.setPosixFilePermissions(p, Files.isDirectory(p) ? READABLE_DIRECTORY : READABLE_FILE);
            }
        }
        return String.join(File.pathSeparator, entries);
    }
}
