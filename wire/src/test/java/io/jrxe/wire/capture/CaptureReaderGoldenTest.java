package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every golden capture reads completely, and CaptureReader sees what tshark sees. */
class CaptureReaderGoldenTest {

    static List<Path> goldenCaptures() {
        return GoldenCaptures.files();
    }

    @Test
    void eachKernelsGoldenCapturesAreFound() {
        for (Path folder : List.of(GoldenCaptures.directory(), GoldenCaptures.trixieDirectory())) {
            assertThat(GoldenCaptures.files()).filteredOn(p -> p.getParent().equals(folder))
                    .extracting(p -> p.getFileName().toString()).as("in %s", folder)
                    .contains("guest_pingpong.pcap", "guest_read_bw.pcap", "v6_write_bw.pcap", "mtu4k_write_bw.pcap")
                    .hasSize(8);
        }
        assertThat(GoldenCaptures.files()).filteredOn(p -> p.getParent().equals(GoldenCaptures.sidDirectory()))
                .extracting(p -> p.getFileName().toString()).containsExactly("odp_pingpong.pcap");
        assertThat(GoldenCaptures.files()).hasSize(17);
    }

    @ParameterizedTest
    @MethodSource("goldenCaptures")
    void framesTimestampsAndLengthsMatchTshark(Path golden) {
        Tshark.assumeInstalled();
        List<List<String>> expected = Tshark.fields(golden, "frame.number", "frame.time_epoch", "frame.len", "frame.cap_len");

        List<CapturedFrame> frames = CaptureReader.readAll(golden);

        assertThat(frames).hasSize(expected.size());
        for (int i = 0; i < frames.size(); i++) {
            CapturedFrame frame = frames.get(i);
            List<String> row = expected.get(i);
            assertThat(frame.frameNumber()).as("frame number").isEqualTo(Long.parseLong(row.get(0)));
            assertThat(frame.timestampNanos()).as("timestamp of frame %d", i + 1).isEqualTo(EpochTime.nanos(row.get(1)));
            assertThat(frame.originalLength()).as("length of frame %d", i + 1).isEqualTo(Integer.parseInt(row.get(2)));
            assertThat(frame.capturedLength()).as("captured length of frame %d", i + 1).isEqualTo(Integer.parseInt(row.get(3)));
            assertThat(frame.linkType()).isEqualTo(LinkType.ETHERNET);
        }
    }

    @ParameterizedTest
    @MethodSource("goldenCaptures")
    void goldenCapturesAreMicrosecondEthernetCaptures(Path golden) {
        try (CaptureReader reader = new CaptureReader(golden)) {
            assertThat(reader.linkType()).isEqualTo(LinkType.ETHERNET);
            CapturedFrame first = reader.next();
            assertThat(first).isNotNull();
            assertThat(first.frameNumber()).isEqualTo(1);
            // Recorded by tcpdump in microseconds: libpcap scales them to nanoseconds.
            assertThat(first.timestampNanos() % 1000).isZero();
            // 2026 or so, as the guests' clocks said; catches a seconds/nanoseconds mix-up.
            assertThat(first.timestampNanos() / 1_000_000_000L).isBetween(1_700_000_000L, 1_900_000_000L);
        }
    }

    @Test
    void readerReturnsNullAfterTheLastFrameAndKeepsDoingSo() {
        try (CaptureReader reader = new CaptureReader(GoldenCaptures.file("guest_atomic_fadd.pcap"))) {
            int count = 0;
            while (reader.next() != null) {
                count++;
            }
            assertThat(count).isEqualTo(40);
            assertThat(reader.next()).isNull();
        }
    }
}
