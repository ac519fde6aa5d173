package io.jrxe.tools;

import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.dissect.Dissector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The README's main job, run in-process over real UDP on loopback. */
class DemoCommandTest {
    @TempDir
    Path dir;

    @Test
    void everyStepBehavesAndTheCaptureValidates() {
        Path capture = dir.resolve("demo.pcapng");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(new String[] {"demo", "--addr-a", "127.0.0.21", "--addr-b", "127.0.0.22",
            "--capture", capture.toString()}, new PrintWriter(out, true), new PrintWriter(err, true));

        String text = out.toString();
        assertThat(status).as(text + err).isZero();
        assertThat(text).contains("All steps behaved as expected.");
        assertThat(text).doesNotContain("UNEXPECTED");
        for (String op : List.of("RC SEND_ONLY ", "RC SEND_ONLY_WITH_IMMEDIATE", "RC RDMA_WRITE_ONLY ", "RC RDMA_WRITE_ONLY_WITH_IMMEDIATE",
                "RC RDMA_READ_REQUEST", "RC RDMA_READ_RESPONSE_ONLY", "RC COMPARE_SWAP", "RC FETCH_ADD", "RC ATOMIC_ACKNOWLEDGE",
                "RC RDMA_WRITE_FIRST", "RC RDMA_WRITE_MIDDLE", "RC RDMA_WRITE_LAST", "AETH NAK remote access error")) {
            assertThat(text).as("the story shows %s", op).contains(op);
        }
        assertThat(text).contains("status=REM_ACCESS_ERR");

        List<CapturedFrame> frames = CaptureReader.readAll(capture);
        assertThat(frames).hasSizeGreaterThan(20);
        Dissector dissector = new Dissector();
        for (CapturedFrame f : frames) {
            assertThat(dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType()).icrcOk())
                    .as("frame %d", f.frameNumber()).isTrue();
        }
    }

    @Test
    void twoDevicesCannotShareOneAddress() {
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(new String[] {"demo", "--addr-a", "127.0.0.23", "--addr-b", "127.0.0.23", "--no-capture"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString().strip()).isEqualTo("jrxe demo: the two devices need two addresses, not both 127.0.0.23");
    }

    @Test
    void anAddressThatIsNotLocalIsRefusedInOneLine() {
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(new String[] {"demo", "--addr-a", "192.0.2.1", "--addr-b", "127.0.0.24", "--no-capture"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(err, true));
        assertThat(status).isEqualTo(2);
        assertThat(err.toString()).contains("192.0.2.1 is not an address of this machine").doesNotContain("Exception");
    }
}
