package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The bytes PcapngWriter produces, checked block by block by an independent parser. */
class PcapngWriterLayoutTest {
    private static final int SHB = 0x0A0D0D0A;
    private static final int IDB = 1;
    private static final int EPB = 6;

    @Test
    void sectionHeaderDeclaresLittleEndianVersionOneWithUnknownLength() {
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> { }));

        assertThat(blocks).hasSize(1);
        PcapngBlocks.Block shb = blocks.getFirst();
        assertThat(shb.offset()).isZero();
        assertThat(shb.type()).isEqualTo(SHB);
        ByteBuffer body = shb.body();
        assertThat(body.getInt(0)).as("byte-order magic").isEqualTo(0x1A2B3C4D);
        assertThat(body.getShort(4)).as("major version").isEqualTo((short) 1);
        assertThat(body.getShort(6)).as("minor version").isEqualTo((short) 0);
        assertThat(body.getLong(8)).as("section length").isEqualTo(-1L);
        assertThat(PcapngBlocks.options(body, 16)).containsKey(4);
    }

    @Test
    void interfaceDescriptionsCarryLinkTypeSnapLengthNameAndNanosecondResolution() {
        int[] ids = new int[2];
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> {
            ids[0] = writer.addInterface("jrxe0", LinkType.ETHERNET, 262144);
            ids[1] = writer.addInterface("port-1", 147, 0);
        }));

        assertThat(ids).containsExactly(0, 1);
        assertThat(blocks).extracting(PcapngBlocks.Block::type).containsExactly(SHB, IDB, IDB);

        ByteBuffer first = blocks.get(1).body();
        assertThat(first.getShort(0)).as("link type").isEqualTo((short) 1);
        assertThat(first.getShort(2)).as("reserved").isZero();
        assertThat(first.getInt(4)).as("snap length").isEqualTo(262144);
        Map<Integer, byte[]> options = PcapngBlocks.options(first, 8);
        assertThat(PcapngBlocks.utf8(options.get(2))).as("if_name").isEqualTo("jrxe0");
        assertThat(options.get(9)).as("if_tsresol").containsExactly(9);

        ByteBuffer second = blocks.get(2).body();
        assertThat(second.getShort(0)).isEqualTo((short) 147);
        assertThat(second.getInt(4)).isZero();
        assertThat(PcapngBlocks.utf8(PcapngBlocks.options(second, 8).get(2))).isEqualTo("port-1");
    }

    @Test
    void packetsOfEveryLengthModuloFourArePaddedAndFramedByTheirLength() {
        long timestamp = 0x0000_0001_8000_0005L; // both 32-bit halves matter, the low one has its top bit set
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> {
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            for (int length = 0; length <= 9; length++) {
                writer.write(0, timestamp + length, pattern(length), 0, length, length % 3 == 0 ? "c".repeat(length) : null);
            }
        }));

        List<PcapngBlocks.Block> packets = blocks.subList(2, blocks.size());
        assertThat(packets).hasSize(10).allSatisfy(b -> assertThat(b.type()).isEqualTo(EPB));
        for (int length = 0; length <= 9; length++) {
            ByteBuffer body = packets.get(length).body();
            assertThat(body.getInt(0)).as("interface id").isZero();
            long written = Integer.toUnsignedLong(body.getInt(4)) << 32 | Integer.toUnsignedLong(body.getInt(8));
            assertThat(written).as("timestamp").isEqualTo(timestamp + length);
            assertThat(body.getInt(12)).as("captured length").isEqualTo(length);
            assertThat(body.getInt(16)).as("original length").isEqualTo(length);
            byte[] data = Arrays.copyOfRange(body.array(), body.arrayOffset() + 20, body.arrayOffset() + 20 + length);
            assertThat(data).isEqualTo(pattern(length));
            int optionsAt = 20 + ((length + 3) & ~3);
            if (length % 3 == 0 && length > 0) {
                assertThat(PcapngBlocks.utf8(PcapngBlocks.options(body, optionsAt).get(1))).isEqualTo("c".repeat(length));
            } else {
                // Without options the block ends right after the padded data.
                assertThat(body.limit()).isEqualTo(optionsAt);
            }
        }
    }

    @Test
    void commentsAreUtf8AndPadded() {
        String comment = "retransmission 2 of PSN 0x000012 — ack lost ✓";
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> {
            writer.addInterface(null, LinkType.ETHERNET, 0);
            writer.write(0, 1, new byte[60], 0, 60, comment);
        }));

        ByteBuffer epb = blocks.get(2).body();
        assertThat(PcapngBlocks.utf8(PcapngBlocks.options(epb, 20 + 60).get(1))).isEqualTo(comment);
        assertThat(PcapngBlocks.options(blocks.get(1).body(), 8)).as("no if_name").doesNotContainKey(2);
    }

    @Test
    void framesLongerThanTheSnapLengthAreCutButKeepTheirOriginalLength() {
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> {
            writer.addInterface("short", LinkType.ETHERNET, 64);
            writer.write(0, 1, pattern(1082), 0, 1082, null);
        }));

        ByteBuffer epb = blocks.get(2).body();
        assertThat(epb.getInt(12)).as("captured length").isEqualTo(64);
        assertThat(epb.getInt(16)).as("original length").isEqualTo(1082);
        assertThat(epb.limit()).isEqualTo(20 + 64);
    }

    @Test
    void byteBufferSourceIsCopiedFromItsOffsetAndLeftUntouched() {
        ByteBuffer direct = ByteBuffer.allocateDirect(100);
        direct.put(pattern(100)).position(7).limit(90);
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> {
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            writer.write(0, 1, direct, 10, 50, null);
        }));

        assertThat(direct.position()).isEqualTo(7);
        assertThat(direct.limit()).isEqualTo(90);
        ByteBuffer epb = blocks.get(2).body();
        byte[] data = Arrays.copyOfRange(epb.array(), epb.arrayOffset() + 20, epb.arrayOffset() + 70);
        assertThat(data).isEqualTo(Arrays.copyOfRange(pattern(100), 10, 60));
    }

    @Test
    void framesLargerThanTheInternalBufferSurviveWhole() {
        byte[] jumbo = pattern(200_000);
        List<PcapngBlocks.Block> blocks = PcapngBlocks.parse(write(writer -> {
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            writer.write(0, 1, pattern(3), 0, 3, null);
            writer.write(0, 2, jumbo, 0, jumbo.length, null);
            writer.write(0, 3, ByteBuffer.wrap(jumbo), 0, jumbo.length, "after");
        }));

        assertThat(blocks).hasSize(5);
        for (PcapngBlocks.Block block : blocks.subList(3, 5)) {
            ByteBuffer epb = block.body();
            byte[] data = Arrays.copyOfRange(epb.array(), epb.arrayOffset() + 20, epb.arrayOffset() + 20 + jumbo.length);
            assertThat(data).isEqualTo(jumbo);
        }
    }

    @Test
    void countersReportEveryByteAndPacket() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(bytes)) {
            long afterHeader = writer.bytesWritten();
            writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
            writer.write(0, 1, pattern(61), 0, 61, "x");
            writer.write(0, 2, pattern(4), 0, 4, null);
            assertThat(writer.packetsWritten()).isEqualTo(2);
            assertThat(afterHeader).isPositive();
            assertThat(bytes.size()).as("nothing reaches the stream before a flush").isZero();
            writer.flush();
            assertThat(writer.bytesWritten()).isEqualTo(bytes.size());
        }
    }

    @Test
    void misuseIsRefusedWithAClearMessage() {
        PcapngWriter writer = new PcapngWriter(new ByteArrayOutputStream());
        assertThatThrownBy(() -> writer.write(0, 1, new byte[4], 0, 4, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no interface 0: declare it with addInterface first (0 declared)");
        writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
        assertThatThrownBy(() -> writer.write(0, -1, new byte[4], 0, 4, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timestamp -1 ns is before 1970");
        assertThatThrownBy(() -> writer.write(0, 1, new byte[4], 2, 4, null))
                .isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> writer.write(0, 1, new byte[4], 0, 4, "x".repeat(70_000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("comment is 70000 bytes in UTF-8; a pcapng option holds at most 65535");
        writer.close();
        writer.close(); // closing twice is harmless
        assertThatThrownBy(() -> writer.write(0, 1, new byte[4], 0, 4, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("the pcapng writer for the capture stream is closed");
    }

    private interface Body {
        void accept(PcapngWriter writer);
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        long counted;
        try (PcapngWriter writer = new PcapngWriter(bytes)) {
            body.accept(writer);
            counted = writer.bytesWritten();
        }
        assertThat(bytes.size()).as("bytesWritten").isEqualTo(counted);
        return bytes.toByteArray();
    }

    private static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + 7);
        }
        return bytes;
    }
}
