package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files that are not whole captures are refused with one sentence that names the file and the problem. */
class CaptureReaderErrorTest {
    private static final int PCAP_FILE_HEADER = 24;
    private static final int PCAP_RECORD_HEADER = 16;

    @TempDir
    Path temp;

    @Test
    void missingFile() {
        Path missing = temp.resolve("nowhere.pcap");
        assertThatThrownBy(() -> new CaptureReader(missing))
                .isInstanceOf(CaptureException.class)
                .hasMessage("no such file: " + missing);
    }

    @Test
    void directory() {
        assertThatThrownBy(() -> new CaptureReader(temp))
                .isInstanceOf(CaptureException.class)
                .hasMessage(temp + " is a directory, not a capture");
    }

    @Test
    void emptyFile() throws IOException {
        Path empty = Files.createFile(temp.resolve("empty.pcap"));
        assertThatThrownBy(() -> new CaptureReader(empty))
                .isInstanceOf(CaptureException.class)
                .hasMessage(empty + " is empty, not a pcap or pcapng capture");
    }

    @Test
    void textFile() throws IOException {
        Path text = Files.writeString(temp.resolve("notes.txt"), "these are notes, not packets\n");
        assertThatThrownBy(() -> new CaptureReader(text))
                .isInstanceOf(CaptureException.class)
                .hasMessage(text + " is not a pcap or pcapng capture: unknown file format");
    }

    @Test
    void pcapCutInTheMiddleOfThePacketAfterFrameThree() throws IOException {
        byte[] golden = Files.readAllBytes(GoldenCaptures.file("guest_pingpong.pcap"));
        int fourth = pcapRecordOffset(golden, 3);
        Path cut = Files.write(temp.resolve("cut.pcap"), Arrays.copyOf(golden, fourth + PCAP_RECORD_HEADER + 500));

        assertThat(readUntilFailure(cut)).hasMessage(cut + " is truncated after frame 3");
    }

    @Test
    void pcapCutInsideARecordHeader() throws IOException {
        byte[] golden = Files.readAllBytes(GoldenCaptures.file("guest_pingpong.pcap"));
        Path cut = Files.write(temp.resolve("cut.pcap"), Arrays.copyOf(golden, pcapRecordOffset(golden, 7) + 5));

        assertThat(readUntilFailure(cut)).hasMessage(cut + " is truncated after frame 7");
    }

    @Test
    void pcapCutInsideTheFileHeader() throws IOException {
        byte[] golden = Files.readAllBytes(GoldenCaptures.file("guest_pingpong.pcap"));
        Path cut = Files.write(temp.resolve("cut.pcap"), Arrays.copyOf(golden, 10));

        assertThatThrownBy(() -> new CaptureReader(cut))
                .isInstanceOf(CaptureException.class)
                .hasMessageStartingWith(cut + " is not a pcap or pcapng capture: truncated dump file");
    }

    @Test
    void pcapngCutInTheMiddleOfAPacket() throws IOException {
        List<CapturedFrame> frames = CaptureReader.readAll(GoldenCaptures.file("guest_atomic_fadd.pcap"));
        Path whole = temp.resolve("whole.pcapng");
        long afterTwoPackets = 0;
        try (PcapngWriter writer = new PcapngWriter(whole)) {
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            for (CapturedFrame frame : frames) {
                writer.write(0, frame.timestampNanos(), frame.data(), 0, frame.data().length, null);
                if (writer.packetsWritten() == 2) {
                    afterTwoPackets = writer.bytesWritten();
                }
            }
        }
        Path cut = Files.write(temp.resolve("cut.pcapng"),
                Arrays.copyOf(Files.readAllBytes(whole), (int) afterTwoPackets + 40));

        assertThat(readUntilFailure(cut)).hasMessage(cut + " is truncated after frame 2");
    }

    @Test
    void pcapngWithGarbageAfterAPacketIsDamaged() throws IOException {
        Path capture = temp.resolve("garbage.pcapng");
        try (PcapngWriter writer = new PcapngWriter(capture)) {
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            writer.write(0, 1, new byte[60], 0, 60, null);
        }
        byte[] whole = Files.readAllBytes(capture);
        Files.write(capture, Arrays.copyOf(whole, whole.length + 16)); // a block that claims length 0

        assertThat(readUntilFailure(capture))
                .hasMessage(capture + " is damaged after frame 1: block in pcapng dump file has a length of 0 < 12");
    }

    @Test
    void closedReaderRefusesToRead() {
        CaptureReader reader = new CaptureReader(GoldenCaptures.file("guest_atomic_fadd.pcap"));
        reader.close();
        reader.close();
        assertThatThrownBy(reader::next)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageEndingWith("guest_atomic_fadd.pcap is closed");
    }

    /** Reads {@code capture} to the end and returns the failure, which must come after the header opened fine. */
    private static CaptureException readUntilFailure(Path capture) {
        try (CaptureReader reader = new CaptureReader(capture)) {
            while (reader.next() != null) {
                // keep reading until it fails
            }
        } catch (CaptureException e) {
            return e;
        }
        throw new AssertionError(capture + " read to its end without an error");
    }

    /** Byte offset of record {@code index} (0-based) in a little-endian classic pcap. */
    private static int pcapRecordOffset(byte[] pcap, int index) {
        ByteBuffer in = ByteBuffer.wrap(pcap).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(in.getInt(0)).as("little-endian microsecond pcap magic").isEqualTo(0xA1B2C3D4);
        int offset = PCAP_FILE_HEADER;
        for (int i = 0; i < index; i++) {
            offset += PCAP_RECORD_HEADER + in.getInt(offset + 8);
        }
        return offset;
    }
}
