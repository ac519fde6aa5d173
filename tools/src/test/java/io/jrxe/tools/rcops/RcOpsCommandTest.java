package io.jrxe.tools.rcops;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.io.TempDir;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import io.jrxe.tools.common.ChildJrxe;
import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * jrxe rc-ops between two JVMs on two jrxe NICs (the server in a child JVM on 127.0.9.1, the client here on
 * 127.0.9.2): every operation passes its checks on both sides. Also its exchange line and its errors. The
 * same command against the kernel's rxe0 runs in it-tests' NativeRcOpsInteropTest.
 */
class RcOpsCommandTest {
    private static final long CHILD_SECONDS = 90;

    @Test
    void everyOperationPassesOnBothSidesBetweenTwoJvms() throws Exception {
        try (ChildJrxe server = ChildJrxe.start("rc-ops", "--addr", "127.0.9.1", "-p", "18561", "--accept-timeout", "60")) {
            server.awaitLine(l -> l.startsWith("  waiting for a client"), CHILD_SECONDS);
            InProcess client = InProcess.run("rc-ops", "--addr", "127.0.9.2", "-d", "jrxe-rcops-client", "-p", "18561",
                    "127.0.9.1");
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
            List<String> clientOk = client.lines().stream().filter(l -> l.startsWith("ok")).toList();
            assertThat(clientOk).as(client.toString()).hasSize(9);
            assertThat(client.out()).contains("5. RDMA_READ", "old value 10 came back", "old value 110 came back",
                    "the server's checks passed", "rc-ops client: every check passed").doesNotContain("FAIL");
            List<String> serverLines = server.stdoutLines();
            assertThat(serverLines.stream().filter(l -> l.startsWith("ok"))).as("%s", serverLines).hasSize(6);
            assertThat(serverLines).as("%s", serverLines).contains("rc-ops server: every check passed")
                    .anyMatch(l -> l.contains("immediate data 0x0badcafe"))
                    .anyMatch(l -> l.contains("holds 111"));
        }
    }

    /**
     * With --placement, ATOMIC_WRITE and a FLUSHed WRITE too; the client sends its FLUSH with rxe's ICRC
     * (--rxe-flush-icrc, seen in its capture), which the server, a jrxe NIC as it comes, accepts.
     */
    @Test
    void placementAddsAtomicWriteAndAFlushedWrite(@TempDir Path dir) throws Exception {
        Path capture = dir.resolve("client.pcapng");
        try (ChildJrxe server = ChildJrxe.start("rc-ops", "--addr", "127.0.9.4", "-p", "18563", "--accept-timeout", "60",
                "--placement", "--counters")) {
            server.awaitLine(l -> l.startsWith("  waiting for a client"), CHILD_SECONDS);
            InProcess client = InProcess.run("rc-ops", "--addr", "127.0.9.5", "-d", "jrxe-rcops-placement", "-p", "18563",
                    "--placement", "--rxe-flush-icrc", "--capture", capture.toString(), "127.0.9.4");
            assertThat(client.status()).as(client.toString()).isZero();
            assertThat(server.waitFor(CHILD_SECONDS)).as(server.stderr()).isZero();
            assertThat(client.lines().stream().filter(l -> l.startsWith("ok"))).as(client.toString()).hasSize(11);
            assertThat(client.out()).contains("9. ATOMIC_WRITE", "0x1122334455667788 put in place at once",
                    "10. RDMA_WRITE, then FLUSH", "2048 bytes written, then flushed").doesNotContain("FAIL");
            List<String> serverLines = server.stdoutLines();
            assertThat(serverLines.stream().filter(l -> l.startsWith("ok"))).as("%s", serverLines).hasSize(8);
            assertThat(serverLines).as("%s", serverLines)
                    .anyMatch(l -> l.startsWith("ok    ATOMIC_WRITE's target") && l.contains("holds 0x1122334455667788"))
                    .anyMatch(l -> l.startsWith("ok    the FLUSHed WRITE's bytes"));
            assertThat(server.stderr()).doesNotContain("jrxe_drop_bad_icrc");
        }
        int flushes = 0;
        for (CapturedFrame f : CaptureReader.readAll(capture)) {
            ByteBuffer b = ByteBuffer.wrap(f.data());
            FrameLayout l = new FrameLayout();
            if (l.parse(b, 0, f.data().length, f.linkType()) != FrameLayout.Kind.ROCE
                    || (b.get(l.bthOffset()) & 0xFF) != Opcode.RC_FLUSH.code()) {
                continue;
            }
            flushes++;
            assertThat(IcrcCalculator.read(b, l.bthOffset() + l.roceLength() - IcrcCalculator.LENGTH)).as("rxe's FLUSH ICRC")
                    .isEqualTo(new IcrcCalculator().rxeFlush(true).ofIpPacket(b, l.ipOffset(), l.ipPacketLength()))
                    .isNotEqualTo(new IcrcCalculator().ofIpPacket(b, l.ipOffset(), l.ipPacketLength()));
        }
        assertThat(flushes).isEqualTo(1);
    }

    @Test
    void theExchangeLineRoundTripsAndAForeignLineIsNamed() {
        byte[] gid = new byte[16];
        gid[0] = (byte) 0xfd;
        gid[15] = 2;
        RcOpsDest d = new RcOpsDest(0x12, 0xabcdef, gid, 0x7f00_1234_5000L, 0x1dc, 1024);
        byte[] line = d.encode();
        assertThat(line).hasSize(RcOpsDest.LENGTH);
        RcOpsDest back = RcOpsDest.decode(line);
        assertThat(back.qpn()).isEqualTo(0x12);
        assertThat(back.psn()).isEqualTo(0xabcdef);
        assertThat(back.gid()).isEqualTo(gid);
        assertThat(back.addr()).isEqualTo(0x7f00_1234_5000L);
        assertThat(back.rkey()).isEqualTo(0x1dc);
        assertThat(back.mtu()).isEqualTo(1024);
        byte[] pingpong = "0000:000012:abcdef:fd000000000000000000000000000002 padding padding padding pad\n"
                .getBytes(StandardCharsets.US_ASCII);
        assertThatThrownBy(() -> RcOpsDest.decode(pingpong)).hasMessageContaining("the peer is not jrxe rc-ops");
    }

    @Test
    void badOptionsAndAMissingServerAreOneLineErrors() {
        InProcess mtu = InProcess.run("rc-ops", "-m", "1000");
        assertThat(mtu.status()).isEqualTo(1);
        assertThat(mtu.err()).contains("-m/--mtu 1000");
        InProcess port = InProcess.run("rc-ops", "-p", "70000");
        assertThat(port.status()).isEqualTo(1);
        assertThat(port.err()).contains("-p/--port 70000");
        InProcess nobody = InProcess.run("rc-ops", "--addr", "127.0.9.3", "-d", "jrxe-rcops-lonely", "-p", "18562",
                "--timeout", "1", "127.0.9.4");
        assertThat(nobody.status()).as(nobody.toString()).isEqualTo(2);
        assertThat(nobody.err()).startsWith("jrxe rc-ops: couldn't connect to 127.0.9.4:18562").doesNotContain("Exception");
    }

    @Test
    void countersArePrintedWhenTheServerWaitedInVain() {
        InProcess r = InProcess.run("rc-ops", "--addr", "127.0.1.75", "-d", "jrxe-rc-cnt",
                "--counters", "--accept-timeout", "0.2", "-p", "19110");
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        List<String> err = r.err().lines().toList();
        assertThat(err).as(r.toString()).hasSize(2);
        assertThat(err.get(0)).startsWith("counters of jrxe-rc-cnt");
        assertThat(err.get(1)).startsWith("jrxe rc-ops: no client connected to TCP port 19110");
    }
}
