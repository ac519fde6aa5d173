package io.jrxe.tools.analyze;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Captures that are not what they claim, cut short, damaged at random or made to mislead: `jrxe analyze` never
 * ends in a stack trace or a jrxe bug. What cannot be read is one line on stderr and exit status 2; what can be
 * read is analysed (exit 0 or 1).
 */
class HostileCapturesTest {
    private static final long SEED = 36;

    @TempDir
    Path dir;

    /** Runs analyze and checks that it failed, if at all, in one clear line; returns the run. */
    private static InProcess analyze(Path capture, String... more) {
        List<String> args = new ArrayList<>(List.of("analyze", capture.toString()));
        args.addAll(List.of(more));
        InProcess r = InProcess.run(args.toArray(String[]::new));
        assertThat(r.status()).as(r.toString()).isBetween(0, 2);
        assertThat(r.err()).as(r.toString()).doesNotContain("\tat ", "Exception", "internal error");
        assertThat(r.err().lines().count()).as(r.toString()).isLessThanOrEqualTo(1);
        if (r.status() == 2) {
            assertThat(r.err()).as(r.toString()).startsWith("jrxe analyze: ");
        } else {
            assertThat(r.err()).as(r.toString()).isEmpty();
            // The report was written to its end: the summary line, or the JSON document's last brace.
            String last = r.lines().getLast();
            assertThat(last.startsWith("summary: ") || last.equals("}")).as(r.toString()).isTrue();
        }
        return r;
    }

    @Test
    void whatIsNoCaptureIsOneLineAndStatusTwo() throws IOException {
        Path missing = dir.resolve("nowhere.pcap");
        assertThat(analyze(missing).err()).isEqualTo("jrxe analyze: no such file: " + missing + "\n");
        assertThat(analyze(dir).status()).isEqualTo(2);
        Path empty = Files.createFile(dir.resolve("empty.pcap"));
        assertThat(analyze(empty).err()).isEqualTo("jrxe analyze: " + empty + " is empty, not a pcap or pcapng capture\n");
        Path text = Files.writeString(dir.resolve("notes.txt"), "these are notes, not packets\n");
        assertThat(analyze(text).err()).startsWith("jrxe analyze: " + text + " is not a pcap or pcapng capture");
    }

    @Test
    void aCaptureCutShortIsAnalysedUpToTheCutThenSaysSo() throws IOException {
        byte[] whole = Files.readAllBytes(GoldenCaptures.file("guest_write_bw.pcap"));
        Path cut = Files.write(dir.resolve("cut.pcap"), Arrays.copyOf(whole, whole.length / 2 + 7));
        InProcess r = analyze(cut);
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("jrxe analyze: " + cut + " is truncated after frame ")
                .contains("the frames before it were analysed");
        assertThat(r.out()).contains("RC connection 1", "capture damaged");
    }

    @Test
    void randomCutsAndFlippedBytesNeverBreakIt() throws IOException {
        Random random = new Random(SEED);
        List<Path> sources = List.of(GoldenCaptures.file("guest_read_bw.pcap"), GoldenCaptures.file("guest_atomic_fadd.pcap"),
                GoldenCaptures.cmFile("cm_rping_v4.pcap"), GoldenCaptures.file("v6_write_bw.pcap"), marked());
        int[] statuses = new int[3];
        for (int i = 0; i < 60; i++) {
            byte[] bytes = Files.readAllBytes(sources.get(i % sources.size()));
            if (i % 3 == 0) {
                bytes = Arrays.copyOf(bytes, 1 + random.nextInt(bytes.length));
            }
            int flips = 1 + random.nextInt(i % 2 == 0 ? 4 : 64);
            for (int f = 0; f < flips; f++) {
                // Flips land anywhere, the file's and records' headers too (the first 64 bytes ten times as often).
                int at = random.nextInt(10) == 0 ? random.nextInt(Math.min(64, bytes.length)) : random.nextInt(bytes.length);
                bytes[at] ^= (byte) (1 << random.nextInt(8));
            }
            Path damaged = Files.write(dir.resolve("damaged-" + i + ".pcap"), bytes);
            statuses[analyze(damaged, "--json").status()]++;
        }
        // Some were read to the end (0 or 1), some stopped at their damage (2).
        assertThat(statuses[0] + statuses[1]).isPositive();
        assertThat(statuses[2]).isPositive();
    }

    @Test
    void packetsWithEveryOpcodeAndRandomHeadersAreAnalysedNotFeared() throws IOException {
        Random random = new Random(SEED);
        Path capture = dir.resolve("chaos.pcapng");
        Opcode[] opcodes = Opcode.values();
        try (PcapngWriter w = new PcapngWriter(capture)) {
            int a = w.addInterface("a", LinkType.ETHERNET, 0);
            int b = w.addInterface("b", LinkType.ETHERNET, 0);
            for (int i = 0; i < 8_000; i++) {
                byte[] roce = SamplePackets.roce(opcodes[random.nextInt(opcodes.length)], random.nextInt(300), random);
                if (random.nextInt(50) == 0) {
                    roce[0] = (byte) random.nextInt(256); // an opcode that may not exist
                }
                if (random.nextInt(20) != 0) {
                    // Mostly a few QPs, whose sequences the random PSNs then jump about in; now and then any QP.
                    new BthFlyweight().wrap(ByteBuffer.wrap(roce), 0).destQpn(0x11 + random.nextInt(4));
                }
                boolean back = random.nextBoolean();
                byte[] frame = SamplePackets.frame(roce, back ? "10.9.0.2" : "10.9.0.1", back ? "10.9.0.1" : "10.9.0.2",
                        49_152 + random.nextInt(4), random.nextInt(65_536));
                String comment = random.nextInt(100) == 0 ? "dropped: made up" : null;
                w.write(random.nextInt(4) == 0 ? b : a, 1_000_000L * i, frame, 0, frame.length, comment);
            }
        }
        InProcess r = analyze(capture, "--max-findings", "3");
        assertThat(r.status()).isEqualTo(1);
        assertThat(analyze(capture, "--json").out()).startsWith("{");
    }

    @Test
    void aPcapWhoseRecordClaimsAGiantPacketStopsThere() throws IOException {
        byte[] golden = Files.readAllBytes(GoldenCaptures.file("guest_pingpong.pcap"));
        ByteBuffer b = ByteBuffer.wrap(golden).order(ByteOrder.LITTLE_ENDIAN);
        int second = 24 + 16 + b.getInt(24 + 8);
        b.putInt(second + 8, 0x7FFF_FFF0); // captured length
        b.putInt(second + 12, 0x7FFF_FFF0); // original length
        InProcess r = analyze(Files.write(dir.resolve("giant.pcap"), golden));
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).contains("after frame 1");
    }

    @Test
    void aBadOptionIsOneLineAndStatusOne() {
        InProcess r = InProcess.run("analyze", "--max-findings", "-3", GoldenCaptures.file("guest_pingpong.pcap").toString());
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err().lines().findFirst().orElseThrow()).contains("--max-findings must be 0 or more");
        assertThat(r.err()).doesNotContain("\tat ");
    }

    /** {@link ScriptedFaults}' capture of both ports: two interfaces, comments, every kind of finding. */
    private Path marked() throws IOException {
        Path file = dir.resolve("scripted.pcapng");
        try {
            ScriptedFaults.write(file, dir.resolve("r.pcapng"), dir.resolve("s.pcapng"));
        } catch (io.jrxe.verbs.VerbsException e) {
            throw new IllegalStateException(e);
        }
        return file;
    }
}
