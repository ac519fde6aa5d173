package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Golden frames rewritten by PcapngWriter must decode in tshark exactly as the originals do,
 * carry their comments and nanosecond timestamps, and read back byte for byte through libpcap.
 */
class PcapngRoundTripTest {
    private static final String[] BTH = {"infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn"};

    @TempDir
    Path temp;

    static List<Path> goldenCaptures() {
        return GoldenCaptures.files();
    }

    /** What the round trip wrote for one golden frame. */
    private record Written(CapturedFrame golden, long timestampNanos, String comment) {
    }

    @ParameterizedTest
    @MethodSource("goldenCaptures")
    void tsharkDecodesTheRewrittenCaptureLikeTheGoldenOne(Path golden) {
        Tshark.assumeInstalled();
        Path rewritten = temp.resolve("rewritten.pcapng");
        List<Written> written = rewrite(golden, rewritten);

        List<List<String>> expected = Tshark.fields(golden, BTH);
        List<List<String>> actual = Tshark.fields(rewritten,
                "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn",
                "frame.comment", "frame.time_epoch", "frame.len");

        assertThat(actual).hasSameSizeAs(expected).hasSameSizeAs(written);
        assertThat(expected).as("tshark decodes the golden BTHs").allSatisfy(row -> assertThat(row.getFirst()).isNotEmpty());
        for (int i = 0; i < actual.size(); i++) {
            List<String> row = actual.get(i);
            Written w = written.get(i);
            assertThat(row.subList(0, 3)).as("BTH of frame %d", i + 1).isEqualTo(expected.get(i));
            assertThat(row.get(3)).as("comment of frame %d", i + 1).isEqualTo(w.comment() == null ? "" : w.comment());
            assertThat(EpochTime.nanos(row.get(4))).as("timestamp of frame %d", i + 1).isEqualTo(w.timestampNanos());
            assertThat(Integer.parseInt(row.get(5))).isEqualTo(w.golden().originalLength());
        }
    }

    @ParameterizedTest
    @MethodSource("goldenCaptures")
    void captureReaderReadsTheRewrittenCaptureBackByteForByte(Path golden) {
        Path rewritten = temp.resolve("rewritten.pcapng");
        List<Written> written = rewrite(golden, rewritten);

        List<CapturedFrame> reread = CaptureReader.readAll(rewritten);

        assertThat(reread).hasSameSizeAs(written);
        for (int i = 0; i < reread.size(); i++) {
            CapturedFrame frame = reread.get(i);
            Written w = written.get(i);
            assertThat(frame.frameNumber()).isEqualTo(i + 1);
            assertThat(frame.data()).as("bytes of frame %d", i + 1).isEqualTo(w.golden().data());
            assertThat(frame.timestampNanos()).as("timestamp of frame %d", i + 1).isEqualTo(w.timestampNanos());
            assertThat(frame.originalLength()).isEqualTo(w.golden().originalLength());
            assertThat(frame.linkType()).isEqualTo(LinkType.ETHERNET);
        }
    }

    @Test
    void nanosecondsSurviveExactly() {
        Tshark.assumeInstalled();
        Path capture = temp.resolve("ns.pcapng");
        byte[] frame = CaptureReader.readAll(GoldenCaptures.file("guest_atomic_fadd.pcap")).getFirst().data();
        long timestamp = 1_795_236_206_491_582_123L;
        try (PcapngWriter writer = new PcapngWriter(capture)) {
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            writer.write(0, timestamp, frame, 0, frame.length, null);
            writer.write(0, timestamp + 1, frame, 0, frame.length, null);
        }

        assertThat(Tshark.fields(capture, "frame.time_epoch"))
                .containsExactly(List.of("1795236206.491582123"), List.of("1795236206.491582124"));
        assertThat(CaptureReader.readAll(capture)).extracting(CapturedFrame::timestampNanos)
                .containsExactly(timestamp, timestamp + 1);
    }

    @Test
    void packetsOnTheSecondInterfaceAreAttributedToIt() {
        Tshark.assumeInstalled();
        Path capture = temp.resolve("two-ports.pcapng");
        List<CapturedFrame> frames = CaptureReader.readAll(GoldenCaptures.file("guest_pingpong.pcap"));
        List<Integer> interfaces = new ArrayList<>();
        try (PcapngWriter writer = new PcapngWriter(capture)) {
            int portA = writer.addInterface("jrxe-a", LinkType.ETHERNET, 65535);
            int portB = writer.addInterface("jrxe-b", LinkType.ETHERNET, 65535);
            assertThat(portB).isEqualTo(1);
            for (CapturedFrame frame : frames) {
                // By sender: the IPv4 source address's last byte is 2 for guest A, 3 for guest B.
                int port = frame.data()[14 + 15] == 2 ? portA : portB;
                interfaces.add(port);
                writer.write(port, frame.timestampNanos(), frame.data(), 0, frame.data().length, null);
            }
        }
        assertThat(interfaces).as("both ports carry traffic").contains(0, 1);

        List<List<String>> rows = Tshark.fields(capture, "frame.interface_id", "frame.interface_name", "ip.src");
        assertThat(rows).hasSize(frames.size());
        for (int i = 0; i < rows.size(); i++) {
            int port = interfaces.get(i);
            assertThat(rows.get(i)).as("frame %d", i + 1)
                    .containsExactly(Integer.toString(port), port == 1 ? "jrxe-b" : "jrxe-a", port == 1 ? "10.77.0.3" : "10.77.0.2");
        }
        assertThat(CaptureReader.readAll(capture)).extracting(CapturedFrame::data)
                .containsExactlyElementsOf(frames.stream().map(CapturedFrame::data).toList());
    }

    /**
     * Writes every frame of {@code golden} on one interface, nudged by a few nanoseconds so the
     * file needs its nanosecond resolution, with comments of varied lengths and scripts on some.
     */
    private static List<Written> rewrite(Path golden, Path target) {
        List<Written> written = new ArrayList<>();
        try (PcapngWriter writer = new PcapngWriter(target)) {
            int port = writer.addInterface("jrxe0", LinkType.ETHERNET, 262144);
            for (CapturedFrame frame : CaptureReader.readAll(golden)) {
                long n = frame.frameNumber();
                long timestamp = frame.timestampNanos() + 1 + n % 997;
                String comment = switch ((int) (n % 5)) {
                    case 0 -> "retransmission 2 of PSN 0x%06x".formatted(n);
                    case 2 -> "dropped by the simulated link (seed 42) — Übertragung ✓ " + "x".repeat((int) (n % 4));
                    default -> null;
                };
                writer.write(port, timestamp, frame.data(), 0, frame.data().length, comment);
                written.add(new Written(frame, timestamp, comment));
            }
        }
        return written;
    }
}
