package io.jrxe.wire.icrc;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ICRC Linux 6.12's rxe puts on RC FLUSH, in captures from the trixie lab (testdata/rxe-trixie/placement):
 * rxe's FLUSH ICRC covers the FLUSH's headers a second time ({@link IcrcCalculator#rxeFlush}), every other packet's
 * is the IBTA's; scapy's RoCE layer, which computes the IBTA's, finds rxe's FLUSH corrupt; and a FLUSH with the
 * IBTA's ICRC from jrxe went unanswered by rxe, sent again and again.
 */
class RxeFlushIcrcTest {
    @TempDir
    Path dir;

    private static Path capture(String name) {
        return GoldenCaptures.trixieDirectory().resolve("placement").resolve(name);
    }

    /** One RoCE frame of a capture: its opcode, stored ICRC and the IBTA's and rxe's ICRC of it. */
    private record Icrcs(long frame, Opcode opcode, int stored, int ibta, int rxe, int identification, byte[] data) {
    }

    private static List<Icrcs> read(String name) {
        IcrcCalculator ibta = new IcrcCalculator();
        IcrcCalculator rxe = new IcrcCalculator().rxeFlush(true);
        List<Icrcs> out = new ArrayList<>();
        for (CapturedFrame f : CaptureReader.readAll(capture(name))) {
            ByteBuffer b = ByteBuffer.wrap(f.data());
            FrameLayout l = new FrameLayout();
            assertThat(l.parse(b, 0, f.data().length, f.linkType())).as("frame %d", f.frameNumber()).isEqualTo(FrameLayout.Kind.ROCE);
            int ipLength = l.ipPacketLength();
            int stored = IcrcCalculator.read(b, l.bthOffset() + l.roceLength() - IcrcCalculator.LENGTH);
            int id = l.ipVersion() == 4 ? b.getShort(l.ipOffset() + 4) & 0xFFFF : -1;
            out.add(new Icrcs(f.frameNumber(), Opcode.of(b.get(l.bthOffset()) & 0xFF), stored, ibta.ofIpPacket(b, l.ipOffset(), ipLength),
                    rxe.ofIpPacket(b, l.ipOffset(), ipLength), id, f.data()));
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"rxe_requester_v6.pcap", "rxe_requester_v4.pcap"})
    void rxesFlushCarriesItsOwnIcrcAndEveryOtherPacketTheIbtas(String name) {
        List<Icrcs> frames = read(name);
        assertThat(frames.stream().filter(f -> f.opcode() == Opcode.RC_FLUSH)).as(name).hasSize(1);
        assertThat(frames.stream().filter(f -> f.opcode() == Opcode.RC_ATOMIC_WRITE)).as(name).hasSize(1);
        for (Icrcs f : frames) {
            if (f.opcode() == Opcode.RC_FLUSH) {
                assertThat(f.stored()).as("%s frame %d", name, f.frame()).isEqualTo(f.rxe()).isNotEqualTo(f.ibta());
            } else {
                assertThat(f.stored()).as("%s frame %d %s", name, f.frame(), f.opcode()).isEqualTo(f.ibta()).isEqualTo(f.rxe());
            }
        }
    }

    @Test
    void theIdentificationOfRxesIpv4FlushIsFoundOnlyWithRxesIcrc() {
        Icrcs flush = read("rxe_requester_v4.pcap").stream().filter(f -> f.opcode() == Opcode.RC_FLUSH).findFirst().orElseThrow();
        ByteBuffer b = ByteBuffer.wrap(flush.data());
        FrameLayout l = new FrameLayout();
        l.parse(b, 0, flush.data().length, io.jrxe.wire.framing.LinkType.ETHERNET);
        int src = b.getInt(l.ipOffset() + 12);
        int dst = b.getInt(l.ipOffset() + 16);
        int ff = b.getShort(l.ipOffset() + 6) & 0xFFFF;
        assertThat(new Ipv4IdentificationSolver(true).solve(src, dst, ff, l.srcPort(), l.dstPort(), b, l.bthOffset(), l.roceLength()))
                .isEqualTo(flush.identification());
        assertThat(new Ipv4IdentificationSolver().solve(src, dst, ff, l.srcPort(), l.dstPort(), b, l.bthOffset(), l.roceLength()))
                .isNotEqualTo(flush.identification());
    }

    @Test
    void jrxeInRxeModeSendsTheIcrcRxeAnswered() {
        List<Icrcs> frames = read("jrxe_requester_rxe_icrc_v6.pcap");
        List<Icrcs> flushes = frames.stream().filter(f -> f.opcode() == Opcode.RC_FLUSH).toList();
        assertThat(flushes).hasSize(1);
        assertThat(flushes.getFirst().stored()).isEqualTo(flushes.getFirst().rxe()).isNotEqualTo(flushes.getFirst().ibta());
        assertThat(frames.stream().filter(f -> f.frame() > flushes.getFirst().frame() && f.opcode() == Opcode.RC_RDMA_READ_RESPONSE_ONLY))
                .as("rxe answers a FLUSH with a READ response of length zero").hasSize(1);
    }

    @Test
    void aFlushWithTheIbtasIcrcGoesUnansweredByRxe() {
        List<Icrcs> frames = read("jrxe_requester_ibta_icrc_v6.pcap");
        List<Icrcs> flushes = frames.stream().filter(f -> f.opcode() == Opcode.RC_FLUSH).toList();
        assertThat(flushes).as("sent again and again until the retries ran out").hasSizeGreaterThan(3)
                .allMatch(f -> f.stored() == f.ibta() && f.stored() != f.rxe());
        assertThat(frames.stream().filter(f -> f.frame() > flushes.getFirst().frame() && f.opcode() == Opcode.RC_RDMA_READ_RESPONSE_ONLY))
                .isEmpty();
    }

    /** scapy's RoCE layer (IPv4 only) computes the IBTA's ICRC: it calls rxe's FLUSH corrupt and its ATOMIC_WRITE good. */
    @Test
    void scapyCallsRxesIpv4FlushCorrupt() throws IOException {
        ExternalTool.assumeScapy();
        Path script = ExternalTool.scapyIcrcScript(dir);
        List<Icrcs> frames = read("rxe_requester_v4.pcap");
        Icrcs flush = frames.stream().filter(f -> f.opcode() == Opcode.RC_FLUSH).findFirst().orElseThrow();
        Icrcs atomicWrite = frames.stream().filter(f -> f.opcode() == Opcode.RC_ATOMIC_WRITE).findFirst().orElseThrow();
        Path file = dir.resolve("rxe-frames.hex");
        Files.write(file, List.of(HexFormat.of().formatHex(flush.data()), HexFormat.of().formatHex(atomicWrite.data())));
        List<String> verdicts = ExternalTool.runOk(List.of(ExternalTool.DEBIAN_PYTHON.toString(), script.toString(), "check",
                file.toString()), 120).lines().toList();
        assertThat(verdicts).hasSize(2);
        assertThat(verdicts.get(0)).startsWith("bad ");
        assertThat(verdicts.get(1)).isEqualTo("ok");
    }
}
