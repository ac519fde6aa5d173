package io.jrxe.tools.view;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.GoldenCaptures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.jrxe.tools.view.PageData.number;
import static io.jrxe.tools.view.PageData.object;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe view` run in-process on kernel rxe's captures, on a jrxe demo capture and on a capture made
 * to hold every mark; the page's data is parsed by a strict JSON parser and checked against counts
 * taken independently (libpcap's frame count, the captures' READMEs, the scenario's script).
 */
class ViewCommandTest {
    @TempDir
    Path dir;

    private PageData view(Path capture, String... more) {
        Path page = dir.resolve(capture.getFileName() + ".html");
        String[] args = new String[3 + more.length + 1];
        args[0] = "view";
        args[1] = capture.toString();
        args[2] = "-o";
        args[3] = page.toString();
        System.arraycopy(more, 0, args, 4, more.length);
        InProcess r = InProcess.run(args);
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines().getFirst()).isEqualTo(page.toString());
        assertThat(r.err()).isEmpty();
        return PageData.read(page);
    }

    @Test
    void kernelRxePingpongIsOneConnectionOfTwentySendsEachAnArrow() {
        Path capture = GoldenCaptures.file("guest_pingpong.pcap");
        PageData page = view(capture);

        // testdata/rxe/README.md: SEND FIRST 20, MIDDLE 40, LAST 20, ACKNOWLEDGE 20, all RoCEv2.
        assertThat(page.packets()).hasSize(CaptureReader.readAll(capture).size()).hasSize(100);
        assertThat(page.connections()).hasSize(1);
        Map<String, Object> connection = page.connections().getFirst();
        assertThat(connection.get("transport")).isEqualTo("RC");
        assertThat(page.list("connections").getFirst().get("lanes")).asString()
                .contains("10.77.0.2", "10.77.0.3", "QP 0x000011");
        assertThat((List<?>) connection.get("packets")).hasSize(100);
        // ibv_rc_pingpong -n 10 with 4096-byte messages: ten SENDs each way, four 1024-byte packets each.
        assertThat(page.messages()).hasSize(20).allSatisfy(m ->
                assertThat(m.get("label")).isEqualTo("SEND 4,096 B (4 pkts)"));
        for (Map<String, Object> p : page.packets()) {
            assertThat(page.flags(p)).as("packet %s", p.get("i")).isEmpty();
            assertThat(number(p, "psn")).isEqualTo(number(object(p, "d"), "psn"));
            assertThat(number(p, "c")).isZero();
        }
        assertThat(page.summaryRows()).hasSize(2).allSatisfy(row -> {
            assertThat(row.get(4)).isEqualTo("50");      // packets: 40 SEND packets and 10 ACKs each
            assertThat(row.get(5)).isEqualTo("10");      // messages
            assertThat(row.get(6)).isEqualTo("40,960");  // data bytes
            assertThat(row.get(7)).isEqualTo("0");       // retransmitted
        });
        // Nothing but requests was bracketed: the header's count is the summary's, with nothing more to say.
        assertThat(page.html()).contains("100 RoCEv2 packets in 1 connection, 20 messages started (requests, each counted "
                + "once, as in the summary per QP)</p>");
        assertSelfContained(page.html());
    }

    @Test
    void aJrxeDemoCaptureDrawsEachPacketOnceWithItsArrivalAndTheNak() {
        Path capture = dir.resolve("demo.pcapng");
        InProcess demo = InProcess.run("demo", "--addr-a", "127.0.19.1", "--addr-b", "127.0.19.2", "--capture", capture.toString());
        assertThat(demo.status()).as(demo.toString()).isZero();
        int frames = CaptureReader.readAll(capture).size();

        PageData page = view(capture);
        // The demo writes each packet as sent by one port and as received by the other (and, when a busy machine
        // delays an ACK past its timeout, a packet sent again, and a late ACK the requester drops as a ghost):
        // every frame is a packet of the ladder or a copy folded into one, and every packet that was not sent
        // again arrived, on the other NIC.
        assertThat(page.packets().size() + number(page.data(), "copies")).isEqualTo(frames);
        assertThat(page.packets().size()).isGreaterThanOrEqualTo(frames / 3);
        assertThat(page.connections()).hasSize(1);
        List<Map<String, Object>> packets = page.packets();
        for (int i = 0; i < packets.size(); i++) {
            Map<String, Object> p = packets.get(i);
            assertThat(p.get("on")).isIn("jrxe0", "jrxe1");
            if (number(p, "a") < 0 && sentAgainLater(packets, i)) {
                continue;
            }
            assertThat(number(p, "a")).as("arrival of packet %s", p.get("i")).isGreaterThanOrEqualTo(number(p, "t"));
            assertThat(p.get("aon")).isIn("jrxe0", "jrxe1").isNotEqualTo(p.get("on"));
        }
        List<Map<String, Object>> naks = page.packets().stream().filter(p -> page.flags(p).contains("nak")).toList();
        assertThat(naks).hasSize(1);
        // The NAK's capture comment names the responder's reason; the page shows it once, not beside its own "NAK ..." note.
        assertThat((String) naks.getFirst().get("note")).startsWith("NAK remote access error: R_Key 0x")
                .containsPattern("\\(index \\d+, variant 0x\\p{XDigit}{2}\\): the key's index was handed out on this device, "
                        + "but no MR or MW there now has the key's variant").doesNotContain("; ");
        assertThat(page.messages()).extracting(m -> m.get("label")).contains("RDMA_WRITE 3,172 B (4 pkts)",
                "SEND 16 B", "SEND 8 B + imm", "RDMA_READ_REQUEST 15 B", "RDMA_READ_RESPONSE 15 B", "COMPARE_SWAP 8 B",
                "FETCH_ADD 8 B");
        // The header counts what the summary counts (the nine requests jrxe0 started, each once) and says what else
        // the ladder brackets: the READ's response, and any message a busy machine made the requester send again.
        long started = page.summaryRows().stream().mapToLong(r -> Long.parseLong(r.get(5).replace(",", ""))).sum();
        assertThat(started).isEqualTo(9);
        assertThat(page.messages()).filteredOn(m -> Boolean.TRUE.equals(m.get("started"))).hasSize(9);
        assertThat(page.html()).contains(page.packets().size() + " RoCEv2 packets in 1 connection, 9 messages started "
                + "(requests, each counted once, as in the summary per QP); the ladders bracket " + page.messages().size()
                + ", with the READ responses and the messages sent again</p>");
        assertSelfContained(page.html());
    }

    /** Whether the packet at {@code index} was sent again later: the same PSN, opcode and sender. */
    private static boolean sentAgainLater(List<Map<String, Object>> packets, int index) {
        Map<String, Object> p = packets.get(index);
        for (int j = index + 1; j < packets.size(); j++) {
            Map<String, Object> q = packets.get(j);
            if (q.get("psn").equals(p.get("psn")) && q.get("op").equals(p.get("op")) && q.get("on").equals(p.get("on"))) {
                return true;
            }
        }
        return false;
    }

    @Test
    void everyMarkLandsOnItsPacket() {
        Path capture = dir.resolve("marked.pcapng");
        MarkedCapture.write(capture);
        PageData page = view(capture);

        assertThat(CaptureReader.readAll(capture)).hasSize(MarkedCapture.FRAMES);
        assertThat(page.packets()).hasSize(MarkedCapture.PACKETS);
        List<List<String>> flags = page.packets().stream().map(page::flags).toList();
        assertThat(flags).containsExactly(List.of(), List.of("lost"), List.of(), List.of("nak"), List.of("retx"),
                List.of("retx"), List.of(), List.of(), List.of("rnr"), List.of("retx"), List.of(), List.of("drop"),
                List.of("retx"), List.of());
        assertThat(page.packets().get(3).get("note")).isEqualTo("NAK PSN sequence error");
        assertThat(page.packets().get(11).get("note")).isEqualTo("dropped by the receiver: bad ICRC");
        assertThat((String) page.packets().get(1).get("note")).startsWith("lost: never arrived");

        Map<String, Object> connection = page.connections().getFirst();
        assertThat(connection.get("lanes")).asString().contains("127.0.19.1", "QP 0x000011", "127.0.19.2", "QP 0x000012");
        List<Map<String, Object>> waits = page.list("rnr_waits");
        assertThat(waits).hasSize(1);
        assertThat(number(waits.getFirst(), "lane")).isZero();
        assertThat(number(waits.getFirst(), "from")).isEqualTo(8);
        assertThat(number(waits.getFirst(), "to")).isEqualTo(9);
        assertThat(waits.getFirst().get("timer")).asString().contains("timer=14");

        // The first SEND is three packets; its retransmitted tail is a message of its own, marked as sent again.
        assertThat(page.messages()).extracting(m -> m.get("label")).containsExactly("SEND 2,248 B (3 pkts)",
                "SEND 1,224 B (2 pkts) again", "SEND 64 B", "SEND 64 B again", "RDMA_WRITE 32 B", "RDMA_WRITE 32 B again");
        Map<String, Object> first = page.messages().getFirst();
        assertThat(List.of(number(first, "first"), number(first, "last"))).containsExactly(0L, 2L);

        List<List<String>> rows = page.summaryRows();
        assertThat(rows.getFirst().subList(1, 12)).containsExactly("127.0.19.1 QP 0x000011", "127.0.19.2 QP 0x000012",
                "RC", "9", "3", "2,344", "4", "0", "0", "2", rows.getFirst().get(11));
        assertThat(rows.get(1).subList(4, 11)).containsExactly("5", "0", "0", "0", "1", "1", "0");
        assertThat(page.html()).contains("are copies of a packet captured again by its receiver");
    }

    @Test
    void aCaptureOfMoreFramesThanMaxPacketsIsDrawnInStretchesWithANote() {
        Path capture = GoldenCaptures.file("guest_read_bw.pcap");
        Path page = dir.resolve("cut.html");
        InProcess r = InProcess.run("view", capture.toString(), "-o", page.toString(), "--max-packets", "10", "--around", "300");
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).hasSize(2).first().isEqualTo(page.toString());
        assertThat(r.lines().get(1)).startsWith("note: the capture holds ").contains("more than --max-packets 10: the ladder "
                + "draws 2 stretches of them (211 frames), the analysis all of them");
        PageData data = PageData.read(page);
        assertThat(data.packets()).hasSize(10);
        assertThat(data.html()).contains("the ladder is drawn for 2 stretches of them (211 frames", "#1..#10 (the start)",
                "#200..#400", "<section id=\"analysis\">", "summary: 1 connection, 0 errors");
        assertThat(ViewCommand.DEFAULT_MAX_PACKETS).isEqualTo(5000);
    }

    @Test
    void theDefaultPageIsTheCaptureWithHtmlForItsExtension() throws IOException {
        Path capture = Files.copy(GoldenCaptures.file("guest_ud_pingpong.pcap"), dir.resolve("ud.pcap"));
        InProcess r = InProcess.run("view", capture.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        assertThat(r.lines()).containsExactly(dir.resolve("ud.html").toString());
        PageData page = PageData.read(dir.resolve("ud.html"));
        assertThat(page.packets()).hasSize(10);
        assertThat(page.connections()).hasSize(1);
        assertThat(page.connections().getFirst().get("transport")).isEqualTo("UD");
        assertThat(ViewCommand.defaultOutput(Path.of("a/b"))).isEqualTo(Path.of("a/b.html"));
        assertThat(ViewCommand.defaultOutput(Path.of("x.y.pcapng"))).isEqualTo(Path.of("x.y.html"));
    }

    /** The data stands in a script element: a '<' or a line separator in a string is escaped, and reads back whole. */
    @Test
    void theDataEscapesWhatWouldEndItsScriptElement() throws IOException {
        String name = "<!--<script \u2028\u2029\".pcap";
        Path capture = Files.copy(GoldenCaptures.file("guest_ud_pingpong.pcap"), dir.resolve(name));
        PageData page = view(capture);
        assertThat(page.data().get("file")).isEqualTo(name);
        assertThat(page.dataText()).doesNotContain("<", "\u2028", "\u2029").contains("\\u2028\\u2029\\\"");
    }

    @Test
    void failuresAreOneLineWithExitTwoAndBadOptionsOneLineWithExitOne() throws IOException {
        Path notACapture = Files.writeString(dir.resolve("notes.txt"), "hello");
        Path capture = GoldenCaptures.file("guest_pingpong.pcap");
        oneLine(2, "jrxe view: no such file: " + dir.resolve("missing.pcap"), "view", dir.resolve("missing.pcap").toString());
        oneLine(2, "is not a pcap or pcapng capture", "view", notACapture.toString(), "-o", dir.resolve("n.html").toString());
        oneLine(2, "cannot write " + dir.resolve("no/such/dir.html") + ": no such directory: " + dir.resolve("no/such"), "view", capture.toString(),
                "-o", dir.resolve("no/such/dir.html").toString());
        Path html = Files.writeString(dir.resolve("page.html"), "x");
        oneLine(2, "the page would overwrite the capture", "view", html.toString(), "-o", html.toString());
        oneLine(1, "--max-packets must be at least 1 (see 'jrxe view --help')", "view", capture.toString(), "--max-packets", "0");
        oneLine(1, "Unknown option: '--frobnicate' (see 'jrxe view --help')", "view", capture.toString(), "--frobnicate");
        oneLine(1, "Missing required parameter: 'CAPTURE' (see 'jrxe view --help')", "view");
    }

    private static void oneLine(int status, String expected, String... args) {
        InProcess r = InProcess.run(args);
        assertThat(r.status()).as(r.toString()).isEqualTo(status);
        assertThat(r.err().lines().toList()).as(r.toString()).hasSize(1);
        assertThat(r.err()).as(r.toString()).startsWith("jrxe view: ").contains(expected).doesNotContain("Exception");
    }

    /** Nothing the page would fetch: no external script, style, image or font (its graphs are images inside it). */
    static void assertSelfContained(String html) {
        assertThat(html).doesNotContain("http://", "https://", "<link", "<script src", "@import", "url(");
        String[] images = html.split("<img", -1);
        assertThat(java.util.Arrays.asList(images).subList(1, images.length)).allSatisfy(img -> assertThat(img).startsWith(" class=\"graph\" alt=\"")
                .containsPattern("^[^>]* src=\"data:image/svg\\+xml;base64,[A-Za-z0-9+/=]+\">"));
        assertThat(html).contains("<style>", "<script>");
    }
}
