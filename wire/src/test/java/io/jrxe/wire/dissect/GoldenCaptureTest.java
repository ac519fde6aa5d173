package io.jrxe.wire.dissect;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The first interop test: every packet that the kernel's rxe put on the wire (the golden
 * captures) decodes, its ICRC validates, jrxe re-encodes it from its decoded fields to the same
 * bytes, and Wireshark's dissector reads the same opcode, QPN and PSN from it.
 */
class GoldenCaptureTest {
    /** The data-path captures and the RDMA CM ones: every packet of both is RoCE. */
    static List<Path> goldenFiles() {
        return GoldenCaptures.allFiles();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void everyPacketDecodesValidatesAndReencodesToTheSameBytes(Path file) {
        Dissector dissector = new Dissector();
        PacketEncoder encoder = new PacketEncoder();
        List<CapturedFrame> frames = CaptureReader.readAll(file);
        assertThat(frames).isNotEmpty();
        for (CapturedFrame f : frames) {
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            String where = file.getFileName() + " frame " + f.frameNumber();
            assertThat(p.kind()).as(where).isEqualTo(FrameLayout.Kind.ROCE);
            assertThat(p.opcode()).as(where).isNotNull();
            assertThat(p.icrcOk()).as("%s: stored %08x computed %08x", where, p.icrcStored(), p.icrcComputed()).isTrue();
            assertThat(encoder.encode(p)).as(where + " re-encoded").isEqualTo(f.data());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void opcodeQpnAndPsnAgreeWithTshark(Path file) {
        Tshark.assumeInstalled();
        List<List<String>> rows = Tshark.fields(file, "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn");
        List<CapturedFrame> frames = CaptureReader.readAll(file);
        assertThat(rows).hasSameSizeAs(frames);
        Dissector dissector = new Dissector();
        for (int i = 0; i < frames.size(); i++) {
            CapturedFrame f = frames.get(i);
            DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
            List<String> tshark = rows.get(i);
            String where = file.getFileName() + " frame " + f.frameNumber();
            assertThat(p.bth().opcode()).as(where + " opcode").isEqualTo(Integer.decode(tshark.get(0)));
            assertThat(p.bth().destQpn()).as(where + " dest QP").isEqualTo(Integer.decode(tshark.get(1)));
            assertThat(p.bth().psn()).as(where + " PSN").isEqualTo(Integer.decode(tshark.get(2)));
        }
    }

    /** The opcode mix testdata/rxe/README.md and testdata/rxe-cm/README.md list for each capture, counted by jrxe. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("goldenFiles")
    void opcodeCountsMatchWhatTheCaptureIsKnownToHold(Path file) {
        Map<String, Map<Opcode, Integer>> expected = Map.ofEntries(
                Map.entry("guest_pingpong.pcap", Map.of(Opcode.RC_SEND_FIRST, 20, Opcode.RC_SEND_MIDDLE, 40,
                        Opcode.RC_SEND_LAST, 20, Opcode.RC_ACKNOWLEDGE, 20)),
                Map.entry("guest_write_bw.pcap", Map.of(Opcode.RC_RDMA_WRITE_FIRST, 20, Opcode.RC_RDMA_WRITE_MIDDLE, 120,
                        Opcode.RC_RDMA_WRITE_LAST, 20, Opcode.RC_ACKNOWLEDGE, 20)),
                Map.entry("guest_read_bw.pcap", Map.of(Opcode.RC_RDMA_READ_REQUEST, 20, Opcode.RC_RDMA_READ_RESPONSE_FIRST, 20,
                        Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, 1240, Opcode.RC_RDMA_READ_RESPONSE_LAST, 20)),
                Map.entry("guest_atomic_fadd.pcap", Map.of(Opcode.RC_FETCH_ADD, 20, Opcode.RC_ATOMIC_ACKNOWLEDGE, 20)),
                Map.entry("guest_ud_pingpong.pcap", Map.of(Opcode.UD_SEND_ONLY, 10)),
                Map.entry("odp_pingpong.pcap", Map.of(Opcode.RC_SEND_FIRST, 6, Opcode.RC_SEND_MIDDLE, 12,
                        Opcode.RC_SEND_LAST, 6, Opcode.RC_ACKNOWLEDGE, 6)),
                Map.entry("v6_pingpong.pcap", Map.of(Opcode.RC_SEND_FIRST, 20, Opcode.RC_SEND_MIDDLE, 40,
                        Opcode.RC_SEND_LAST, 20, Opcode.RC_ACKNOWLEDGE, 20)),
                Map.entry("v6_write_bw.pcap", Map.of(Opcode.RC_RDMA_WRITE_FIRST, 20, Opcode.RC_RDMA_WRITE_MIDDLE, 120,
                        Opcode.RC_RDMA_WRITE_LAST, 20, Opcode.RC_ACKNOWLEDGE, 20)),
                Map.entry("mtu4k_write_bw.pcap", Map.of(Opcode.RC_RDMA_WRITE_FIRST, 10, Opcode.RC_RDMA_WRITE_MIDDLE, 140,
                        Opcode.RC_RDMA_WRITE_LAST, 10, Opcode.RC_ACKNOWLEDGE, 10)),
                // The CM messages are the UD SEND ONLYs (to QP1); rping's three rounds and ucmatose's 16 SENDs follow them.
                Map.entry("cm_rping_v4.pcap", Map.of(Opcode.UD_SEND_ONLY, 5, Opcode.RC_SEND_ONLY, 12,
                        Opcode.RC_ACKNOWLEDGE, 15, Opcode.RC_RDMA_READ_REQUEST, 3, Opcode.RC_RDMA_READ_RESPONSE_ONLY, 3,
                        Opcode.RC_RDMA_WRITE_ONLY, 3)),
                Map.entry("cm_ucmatose.pcap", Map.of(Opcode.UD_SEND_ONLY, 10, Opcode.RC_SEND_ONLY, 16,
                        Opcode.RC_ACKNOWLEDGE, 16)),
                Map.entry("cm_refused.pcap", Map.of(Opcode.UD_SEND_ONLY, 2)));
        String name = file.getFileName().toString();
        assertThat(expected).as("a new golden capture needs its expected opcode counts here").containsKey(name);
        Dissector dissector = new Dissector();
        Map<Opcode, Integer> counted = new TreeMap<>();
        for (CapturedFrame f : CaptureReader.readAll(file)) {
            counted.merge(dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType()).opcode(), 1, Integer::sum);
        }
        assertThat(counted).isEqualTo(new TreeMap<>(expected.get(name)));
    }
}
