package io.jrxe.wire.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A pcap record whose microseconds field holds a whole second or more (found by
 * CaptureFileFuzzTest, seed 13276974): libpcap passes it on, and Pcap4J's timestamp conversion
 * throws a bare IllegalArgumentException for it, which must not leave {@link CaptureReader#next}.
 * It is damage to the file, reported like any other: a CaptureException naming the file and the frame.
 */
class CaptureReaderTimestampTest {
    private static final int PCAP_FILE_HEADER = 24;
    private static final int PCAP_RECORD_HEADER = 16;

    @TempDir
    Path temp;

    @Test
    void aFractionOfASecondOfOneSecondOrMoreIsReportedAsDamage() throws IOException {
        byte[] golden = Files.readAllBytes(GoldenCaptures.file("guest_atomic_fadd.pcap"));
        ByteBuffer b = ByteBuffer.wrap(golden).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(b.getInt(0)).as("a little-endian microsecond pcap").isEqualTo(0xA1B2C3D4);
        int third = PCAP_FILE_HEADER;
        for (int i = 0; i < 2; i++) {
            third += PCAP_RECORD_HEADER + b.getInt(third + 8);
        }
        b.putInt(third + 4, 1_000_000);
        Path damaged = Files.write(temp.resolve("damaged.pcap"), golden);

        try (CaptureReader reader = new CaptureReader(damaged)) {
            assertThat(reader.next()).isNotNull();
            assertThat(reader.next()).isNotNull();
            assertThatThrownBy(reader::next)
                    .isInstanceOf(CaptureException.class)
                    .hasMessage(damaged + " is damaged after frame 2: frame 3 has a timestamp whose fraction of a"
                            + " second is a second or more");
            assertThat(reader.next()).as("the reader stops at the damage").isNull();
        }
    }
}
