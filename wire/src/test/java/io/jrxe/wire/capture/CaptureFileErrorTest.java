package io.jrxe.wire.capture;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A capture that cannot be created says why in words, not only the path the JDK's exception carries. */
class CaptureFileErrorTest {
    @Test
    void aCaptureInADirectoryThatDoesNotExistSaysSo(@TempDir Path dir) {
        Path file = dir.resolve("missing").resolve("x.pcapng");
        assertThatThrownBy(() -> new PcapngWriter(file)).isInstanceOf(CaptureException.class)
                .hasMessage("cannot create capture " + file + ": its directory does not exist");
    }

    @Test
    void aCaptureWhereADirectoryIsSaysWhatTheFileSystemSaid(@TempDir Path dir) {
        assertThatThrownBy(() -> new PcapngWriter(dir)).isInstanceOf(CaptureException.class)
                .hasMessageStartingWith("cannot create capture " + dir + ": ")
                .hasMessageNotContaining(": " + dir);
    }
}
