package io.jrxe.wire.capture;

import io.jrxe.wire.framing.LinkType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * How the pcapng writer hands its bytes over: buffers filled to the last byte (fields and packets
 * run on into the next one), so that a file can take them with direct I/O, and a file so written
 * holds exactly what a stream gets.
 */
class CaptureBuffersTest {
    @TempDir
    Path temp;

    /** Every kind of block, fields of every width and packets of every length modulo 4, with and without comments. */
    private static final Consumer<PcapngWriter> EVERY_KIND_OF_BLOCK = writer -> {
        writer.addInterface("jrxe0", LinkType.ETHERNET, 0);
        writer.addInterface("a port with a longer name", LinkType.ETHERNET, 96);
        for (int i = 0; i < 300; i++) {
            int length = 1 + (i * 37) % 4200;
            writer.write(i % 2, 1_700_000_000_000_000_000L + i, pattern(length, i), 0, length, i % 7 == 0 ? "dropped: " + i : null);
        }
    };

    @Test
    void buffersAreHandedOverFullExceptTheLastAndHoldWhatAStreamGets() {
        List<Integer> handed = new ArrayList<>();
        ByteArrayOutputStream viaBuffers = new ByteArrayOutputStream();
        // 100 bytes: no block, field run or packet fits a buffer evenly, so each of them is cut somewhere.
        PcapngWriter.BlockOutput recorder = new PcapngWriter.BlockOutput() {
            @Override
            public ByteBuffer first() {
                return ByteBuffer.allocate(100);
            }

            @Override
            public ByteBuffer swap(ByteBuffer filled) {
                handed.add(filled.position());
                viaBuffers.write(filled.array(), 0, filled.position());
                return filled.clear();
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        try (PcapngWriter writer = new PcapngWriter(recorder, "the recorder")) {
            EVERY_KIND_OF_BLOCK.accept(writer);
        }

        assertThat(handed.subList(0, handed.size() - 1)).as("all but the last buffer").allMatch(n -> n == 100);
        assertThat(handed.getLast()).isBetween(1, 100);
        assertThat(viaBuffers.toByteArray()).isEqualTo(streamed(EVERY_KIND_OF_BLOCK));
    }

    @Test
    void aFileTakesWholeBuffersWithDirectIoAndTheTailThroughThePageCache() throws IOException {
        Path capture = temp.resolve("direct.pcapng");
        assumeTrue(directIoWorksIn(temp), "the file system of " + temp + " refuses O_DIRECT: nothing to check here");
        Consumer<PcapngWriter> severalBuffers = writer -> {
            // A round of EVERY_KIND_OF_BLOCK is about 310 kB (half its packets are cut to 96 bytes): enough for four buffers.
            for (int round = 0; round < 4 * BackgroundFileOutput.BUFFER_SIZE / 300_000; round++) {
                EVERY_KIND_OF_BLOCK.accept(writer);
            }
        };
        BackgroundFileOutput output = new BackgroundFileOutput(capture);
        try (PcapngWriter writer = new PcapngWriter(output, capture.toString())) {
            severalBuffers.accept(writer);
        }

        byte[] expected = streamed(severalBuffers);
        assertThat(expected.length).as("more than 3 whole buffers and a tail")
                .isGreaterThan(3 * BackgroundFileOutput.BUFFER_SIZE)
                .matches(n -> n % BackgroundFileOutput.BUFFER_SIZE != 0);
        assertThat(output.bytesWrittenDirectly()).isEqualTo((long) expected.length / BackgroundFileOutput.BUFFER_SIZE
                * BackgroundFileOutput.BUFFER_SIZE);
        assertThat(Files.readAllBytes(capture)).isEqualTo(expected);
    }

    private static boolean directIoWorksIn(Path dir) {
        try (FileChannel ch = FileChannel.open(dir.resolve("probe"), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE,
                com.sun.nio.file.ExtendedOpenOption.DIRECT)) {
            return true;
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    private static byte[] streamed(Consumer<PcapngWriter> blocks) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapngWriter writer = new PcapngWriter(bytes)) {
            blocks.accept(writer);
        }
        return bytes.toByteArray();
    }

    private static byte[] pattern(int length, int seed) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) {
            b[i] = (byte) (i * 31 + seed);
        }
        return b;
    }
}
