package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The interface and comments of each packet, read back from files jrxe wrote and from blocks built by hand. */
class PcapngAnnotationsTest {
    @TempDir
    Path dir;

    private static final byte[] FRAME = new byte[61]; // odd length: the options start after padding

    @Test
    void eachPacketKeepsItsInterfaceAndComment() throws IOException {
        Path file = dir.resolve("two.pcapng");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(bytes)) {
            int a = writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            int b = writer.addInterface("jrxe1", LinkType.ETHERNET, 0);
            writer.write(a, 1, FRAME, 0, FRAME.length, null);
            writer.write(b, 2, FRAME, 0, FRAME.length, "dropped: psn out of window");
            writer.write(a, 3, FRAME, 0, 8, "Übertragung ✓");
        }
        Files.write(file, bytes.toByteArray());

        assertThat(PcapngAnnotations.read(file, Long.MAX_VALUE)).containsExactly(
                new PcapngAnnotations.Annotation(0, "jrxe0", null),
                new PcapngAnnotations.Annotation(1, "jrxe1", "dropped: psn out of window"),
                new PcapngAnnotations.Annotation(0, "jrxe0", "Übertragung ✓"));
        assertThat(PcapngAnnotations.read(file, 2)).hasSize(2);
        // libpcap numbers the same packets in the same order.
        assertThat(CaptureReader.readAll(file)).hasSize(3);
    }

    @Test
    void aClassicPcapHasNoAnnotations() {
        assertThat(PcapngAnnotations.read(GoldenCaptures.file("guest_pingpong.pcap"), Long.MAX_VALUE)).isEmpty();
    }

    @Test
    void aTruncatedFileEndsTheListWhereTheDamageIs() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(bytes)) {
            int a = writer.addInterface("p", LinkType.ETHERNET, 0);
            for (int i = 0; i < 4; i++) {
                writer.write(a, i, FRAME, 0, FRAME.length, "n" + i);
            }
        }
        byte[] whole = bytes.toByteArray();
        Path file = dir.resolve("cut.pcapng");
        Files.write(file, Arrays.copyOf(whole, whole.length - 10));
        assertThat(PcapngAnnotations.read(file, Long.MAX_VALUE)).extracting(PcapngAnnotations.Annotation::comment)
                .containsExactly("n0", "n1", "n2");
    }

    @Test
    void aBigEndianSectionWithTwoCommentsOnOnePacket() throws IOException {
        ByteBuffer file = ByteBuffer.allocate(256).order(ByteOrder.BIG_ENDIAN);
        // Section header: type, length, magic, version 1.0, section length unknown (-1), length again.
        file.putInt(0x0A0D0D0A).putInt(28).putInt(0x1A2B3C4D).putShort((short) 1).putShort((short) 0).putLong(-1).putInt(28);
        // Interface description: link type, reserved, snap length, if_name "eth9" (4 bytes), end of options.
        file.putInt(1).putInt(32).putShort((short) 1).putShort((short) 0).putInt(0)
                .putShort((short) 2).putShort((short) 4).put("eth9".getBytes(StandardCharsets.US_ASCII))
                .putInt(0).putInt(32);
        // Enhanced packet: interface 0, time, 2 bytes captured (padded to 4), two comments, end of options.
        int length = 32 + 4 + (4 + 4) + (4 + 4) + 4;
        file.putInt(6).putInt(length).putInt(0).putInt(0).putInt(7).putInt(2).putInt(2).putShort((short) 0x0102).putShort((short) 0)
                .putShort((short) 1).putShort((short) 3).put("one".getBytes(StandardCharsets.US_ASCII)).put((byte) 0)
                .putShort((short) 1).putShort((short) 3).put("two".getBytes(StandardCharsets.US_ASCII)).put((byte) 0)
                .putInt(0).putInt(length);
        Path path = dir.resolve("be.pcapng");
        Files.write(path, Arrays.copyOf(file.array(), file.position()));

        List<PcapngAnnotations.Annotation> read = PcapngAnnotations.read(path, 10);
        assertThat(read).containsExactly(new PcapngAnnotations.Annotation(0, "eth9", "one; two"));
    }
}
