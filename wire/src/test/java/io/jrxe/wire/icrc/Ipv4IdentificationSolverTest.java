package io.jrxe.wire.icrc;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.framing.LinkType;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** Recovering the IPv4 identification that a UDP socket hides, from the ICRC alone. */
class Ipv4IdentificationSolverTest {
    @Test
    void findsTheRealIdentificationOfEveryGoldenIpv4Packet() {
        Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
        FrameLayout layout = new FrameLayout();
        int checked = 0;
        for (var file : GoldenCaptures.files()) {
            for (CapturedFrame f : CaptureReader.readAll(file)) {
                ByteBuffer b = ByteBuffer.wrap(f.data());
                assertThat(layout.parse(b, 0, f.data().length, LinkType.ETHERNET)).isEqualTo(FrameLayout.Kind.ROCE);
                if (layout.ipVersion() != 4) {
                    continue;
                }
                int ip = layout.ipOffset();
                int realId = b.getShort(ip + 4) & 0xFFFF;
                int solved = solver.solve(b.getInt(ip + 12), b.getInt(ip + 16), b.getShort(ip + 6) & 0xFFFF,
                        layout.srcPort(), layout.dstPort(), b, layout.bthOffset(), layout.roceLength());
                assertThat(solved).as("%s frame %d", file.getFileName(), f.frameNumber()).isEqualTo(realId);
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(1000);
    }

    @Test
    void rejectsCorruptedPacketsExceptForTheExpectedOneIn65536() {
        Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
        IcrcCalculator icrc = new IcrcCalculator();
        Random random = new Random(4791);
        int accepted = 0;
        int trials = 20_000;
        for (int t = 0; t < trials; t++) {
            byte[] roce = new byte[12 + 256 + 4];
            random.nextBytes(roce);
            ByteBuffer b = ByteBuffer.wrap(roce);
            int id = random.nextInt(65536);
            IcrcCalculator.write(b, roce.length - 4, icrc.ipv4(0x0A000001, 0x0A000002, id, 0x4000, 50000, 4791, b, 0, roce.length));
            assertThat(solver.solve(0x0A000001, 0x0A000002, 0x4000, 50000, 4791, b, 0, roce.length)).isEqualTo(id);
            roce[12 + random.nextInt(256)] ^= (byte) (1 << random.nextInt(8));
            if (solver.solve(0x0A000001, 0x0A000002, 0x4000, 50000, 4791, b, 0, roce.length) != Ipv4IdentificationSolver.NO_SOLUTION) {
                accepted++;
            }
        }
        // 2^-16 per corrupted packet: 20,000 trials expect 0.3; more than 5 would mean the check is weak.
        assertThat(accepted).isLessThanOrEqualTo(5);
    }

    @Test
    void everyIdentificationOfEveryLengthIsFoundAndAOneBitCorruptionIsNotTakenForIt() {
        Ipv4IdentificationSolver solver = new Ipv4IdentificationSolver();
        IcrcCalculator icrc = new IcrcCalculator();
        Random random = new Random(4792);
        for (int t = 0; t < 2_000; t++) {
            byte[] roce = new byte[12 + 1 + random.nextInt(1024) + 4];
            random.nextBytes(roce);
            ByteBuffer b = ByteBuffer.wrap(roce);
            // 0 (older Linux kernels' number for a DF datagram from an unconnected socket), 65535, and any between
            int id = t == 0 ? 0 : t == 1 ? 0xFFFF : random.nextInt(65536);
            IcrcCalculator.write(b, roce.length - 4, icrc.ipv4(0x7F000901, 0x7F000902, id, 0x4000, 49152, 4791, b, 0, roce.length));
            assertThat(solver.solve(0x7F000901, 0x7F000902, 0x4000, 49152, 4791, b, 0, roce.length)).isEqualTo(id);
            roce[12 + random.nextInt(roce.length - 16)] ^= (byte) (1 << random.nextInt(8));
            // a CRC catches every one-bit error: whatever identification fits now, the real one cannot
            assertThat(solver.solve(0x7F000901, 0x7F000902, 0x4000, 49152, 4791, b, 0, roce.length)).isNotEqualTo(id);
        }
    }
}
