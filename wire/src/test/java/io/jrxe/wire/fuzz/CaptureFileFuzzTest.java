package io.jrxe.wire.fuzz;

import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.dissect.PacketDetail;
import io.jrxe.wire.dissect.PacketJson;
import io.jrxe.wire.dissect.PacketSummary;
import io.jrxe.wire.framing.LinkType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Seeded mutations of whole capture files: the small golden pcaps as recorded, and pcapng files
 * written by jrxe's own PcapngWriter (two interfaces, packet comments). Each damaged file is read
 * with CaptureReader and every frame it yields goes through the dissector and its renderings. A
 * damaged file is reported as a {@link CaptureException} naming it, never another exception; no
 * reader yields more frames than the file has room for, and the whole run is under a time limit,
 * so a reader that loops is a failure, not a hung build. A failure names its seed and shows the
 * file's first 4 KiB; rerun it with {@code -Djrxe.fuzz.seed=SEED -Djrxe.fuzz.capture.cases=1}.
 */
class CaptureFileFuzzTest {
    private static final long BASE_SEED = Long.getLong("jrxe.fuzz.seed", 0xCA97_0EL);
    private static final int CASES = Integer.getInteger("jrxe.fuzz.capture.cases", 3_000);
    // The smallest record either format has: a pcap record header is 16 bytes, a pcapng block 12.
    private static final int SMALLEST_RECORD = 12;
    private static final int PCAP_FIRST_RECORD_LENGTHS = 24 + 8;

    private record Sample(String origin, byte[] bytes, int[] lengthFields) {
    }

    private static final List<Sample> samples = new ArrayList<>();

    @TempDir
    Path temp;

    @BeforeAll
    static void load() throws IOException {
        for (Path file : GoldenCaptures.allFiles()) {
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length <= 8192) {
                samples.add(new Sample(file.getFileName().toString(), bytes,
                        new int[] {PCAP_FIRST_RECORD_LENGTHS, PCAP_FIRST_RECORD_LENGTHS + 2, PCAP_FIRST_RECORD_LENGTHS + 4}));
            }
        }
        List<CapturedFrame> frames = CaptureReader.readAll(GoldenCaptures.cmFile("cm_rping_v4.pcap"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(out)) {
            int a = writer.addInterface("jrxe-a", LinkType.ETHERNET, 65535);
            int b = writer.addInterface("jrxe-b", LinkType.ETHERNET, 128);
            for (CapturedFrame f : frames) {
                writer.write(f.frameNumber() % 2 == 0 ? a : b, f.timestampNanos(), f.data(), 0, f.data().length,
                        f.frameNumber() % 3 == 0 ? "dropped: psn out of window" : null);
            }
        }
        // A pcapng block's total length is its second word; the section header is the first block.
        samples.add(new Sample("PcapngWriter output", out.toByteArray(), new int[] {4, 6}));
        assertThat(samples).hasSizeGreaterThan(3);
    }

    @Test
    void damagedCapturesAreReportedNeverThrownOrLooped() {
        int[] outcome = new int[3]; // read whole, refused when opened, refused part way
        long[] frames = new long[1];
        assertTimeoutPreemptively(Duration.ofSeconds(120), () -> {
            Dissector dissector = new Dissector();
            Path file = temp.resolve("damaged.pcap");
            for (int i = 0; i < CASES; i++) {
                long seed = BASE_SEED + i;
                Random random = new Random(seed);
                Sample start = samples.get(random.nextInt(samples.size()));
                Sample other = samples.get(random.nextInt(samples.size()));
                Mutator mutator = new Mutator(random, 96, start.lengthFields());
                byte[] bytes = mutator.mutate(start.bytes(), other.bytes());
                Files.write(file, bytes);
                try {
                    outcome[read(file, bytes.length, dissector, frames)]++;
                } catch (Throwable t) {
                    throw new AssertionError("seed " + seed + " (from " + start.origin() + ", mutations "
                            + mutator.applied() + ", " + Mutator.hex(bytes) + "): " + t, t);
                }
            }
        });
        System.out.printf("CaptureFileFuzzTest: %d damaged files, %d read to the end (%d frames dissected),"
                + " %d refused when opened, %d refused part way%n", CASES, outcome[0], frames[0], outcome[1], outcome[2]);
        assertThat(java.util.Arrays.stream(outcome).min().orElseThrow()).as("every outcome is reached").isGreaterThan(CASES / 100);
    }

    // 0 when the file read to its end, 1 when it was refused at once, 2 when part way.
    private static int read(Path file, int fileLength, Dissector dissector, long[] frames) {
        CaptureReader reader;
        try {
            reader = new CaptureReader(file);
        } catch (CaptureException refused) {
            assertThat(refused.getMessage()).contains(file.toString());
            return 1;
        }
        try (reader) {
            int limit = fileLength / SMALLEST_RECORD + 1;
            for (int n = 0; ; n++) {
                CapturedFrame f = reader.next();
                if (f == null) {
                    return 0;
                }
                assertThat(n).as("frames from a file of %d bytes", fileLength).isLessThan(limit);
                frames[0]++;
                DissectedPacket p = dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType());
                assertThat(PacketSummary.of(p)).isNotBlank();
                assertThat(PacketDetail.of(p)).isNotBlank();
                assertThat(PacketJson.of(p)).startsWith("{");
            }
        } catch (CaptureException damaged) {
            assertThat(damaged.getMessage()).contains(file.toString());
            return 2;
        }
    }
}
