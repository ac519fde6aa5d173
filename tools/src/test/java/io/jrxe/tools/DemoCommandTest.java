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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        assertTheDetailsAreTrue(text);

        List<CapturedFrame> frames = CaptureReader.readAll(capture);
        assertThat(frames).hasSizeGreaterThan(20);
        Dissector dissector = new Dissector();
        for (CapturedFrame f : frames) {
            assertThat(dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType()).icrcOk())
                    .as("frame %d", f.frameNumber()).isTrue();
        }
    }

    /** Issue 40's misleading details: each would read again as it did without its fix. */
    private static void assertTheDetailsAreTrue(String text) {
        // Two QPNs and two keys: each NIC numbers its own.
        Matcher qps = Pattern.compile("RC QP 0x(\\p{XDigit}{6}) \\(jrxe0\\) <-> RC QP 0x(\\p{XDigit}{6}) \\(jrxe1\\)").matcher(text);
        assertThat(qps.find()).as(text).isTrue();
        assertThat(qps.group(1)).isNotEqualTo(qps.group(2));
        Matcher keys = Pattern.compile("jrxe0's MR has key 0x(\\p{XDigit}+), jrxe1's 0x(\\p{XDigit}+)").matcher(text);
        assertThat(keys.find()).as(text).isTrue();
        assertThat(keys.group(1)).isNotEqualTo(keys.group(2));
        // The BTH of a packet to jrxe1 names jrxe1's QP, and the way back jrxe0's.
        assertThat(text).contains("jrxe0 -> jrxe1  RC SEND_ONLY  qp=0x" + qps.group(2))
                .contains("jrxe1 -> jrxe0  RC ACKNOWLEDGE  qp=0x" + qps.group(1));

        // The wrong rkey is the right one plus one: nothing was re-registered, deregistered or invalidated.
        assertThat(text).doesNotContain("re-registered", "deregistered", "invalidated")
                .containsPattern("R_Key 0x\\p{XDigit}{8} \\(index \\d+, variant 0x\\p{XDigit}{2}\\): the key's index was handed out"
                        + " on this device, but no MR or MW there now has the key's variant");

        // Immediate data only where a completion holds some: the receiver's.
        List<String> completions = text.lines().filter(l -> l.contains("completion on")).toList();
        assertThat(completions).filteredOn(l -> l.contains("completion on jrxe0")).hasSize(9)
                .noneMatch(l -> l.contains("imm="));
        assertThat(completions).filteredOn(l -> l.contains("imm=")).containsExactly(
                "  completion on jrxe1: wr_id=1003 status=SUCCESS opcode=RECV byte_len=8 qp=0x" + qps.group(2) + " imm=0x00c0ffee",
                "  completion on jrxe1: wr_id=1006 status=SUCCESS opcode=RECV_RDMA_WITH_IMM byte_len=32 qp=0x" + qps.group(2)
                        + " imm=0x0000002a");

        // rdma_sends=2 after nine operations: the output says what it counts.
        assertThat(text).contains("rdma_sends=2", "rdma_sends counts the SEND work requests that completed");

        // Step 1's long first answer is told, with its time and the other steps' for comparison.
        assertThat(text).containsPattern("Times: step 1's answer left jrxe1 \\d+\\.\\d{3} ms after its request left jrxe0; "
                + "the other steps' took \\d+\\.\\d{3} ms \\(median\\)")
                .contains("a cost of the program's start, not of RDMA");
    }

    /**
     * --faults: the first WRITE that jrxe0 sends is lost on its way out; the story shows it lost and sent again after the
     * ACK timeout, every step still succeeds, and the capture is written.
     */
    @Test
    void aFaultOnDemandIsToldAndRecovered() {
        Path capture = dir.resolve("lost.pcapng");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = JrxeMain.run(new String[] {"demo", "--addr-a", "127.0.0.25", "--addr-b", "127.0.0.26",
            "--faults", "drop,nth=1,op=write,count=1", "--capture", capture.toString()}, new PrintWriter(out, true),
                new PrintWriter(err, true));

        String text = out.toString();
        assertThat(status).as(text + err).isZero();
        assertThat(text).contains("All steps behaved as expected.")
                .containsPattern("packet: jrxe0 x jrxe1  RC RDMA_WRITE_ONLY  .* payload=64  \\(fault on send: dropped")
                .as("the dropped WRITE carries the ICRC it would have left with").doesNotContain("icrc=BAD")
                .containsPattern("packet: jrxe0 -> jrxe1  RC RDMA_WRITE_ONLY  .*\\(retransmission 1 of PSN 0x[0-9a-f]+ after ACK timeout\\)");
        assertThat(CaptureReader.readAll(capture)).hasSizeGreaterThan(20);

        StringWriter badErr = new StringWriter();
        int bad = JrxeMain.run(new String[] {"demo", "--faults", "drop,op=nonsense", "--no-capture"},
                new PrintWriter(new StringWriter(), true), new PrintWriter(badErr, true));
        assertThat(bad).isEqualTo(1);
        assertThat(badErr.toString().strip().lines()).singleElement().asString().startsWith("jrxe demo: --faults 'drop,op=nonsense'");
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
