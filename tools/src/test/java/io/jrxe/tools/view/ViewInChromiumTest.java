package io.jrxe.tools.view;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.PcapngWriter;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.header.CnpWriter;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.testing.SamplePackets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The pages `jrxe view` writes, loaded by a real browser (headless chromium): they must load without
 * a single console message (an uncaught script error is one), draw one arrow per packet, and show a
 * packet's headers when one is selected.
 */
class ViewInChromiumTest {
    @TempDir
    Path dir;

    private Path page(Path capture) {
        Path page = dir.resolve(capture.getFileName() + ".html");
        InProcess r = InProcess.run("view", capture.toString(), "-o", page.toString());
        assertThat(r.status()).as(r.toString()).isZero();
        return page;
    }

    private static HeadlessChromium.Load loadCleanly(String url) {
        HeadlessChromium.Load load = HeadlessChromium.dumpDom(url);
        assertThat(load.consoleMessages()).as("console messages of %s", url).isEmpty();
        assertThat(load.dom()).as("the page's script finished").contains("data-ladder-done=\"true\"")
                .doesNotContain("data-error=");
        return load;
    }

    /** The drawn ladders in a dumped DOM (the page's script source, which also holds such markup, left out). */
    private static String ladders(HeadlessChromium.Load load) {
        String dom = load.dom();
        int from = dom.indexOf("<section id=\"ladders\">");
        int to = dom.indexOf("</main>", from);
        assertThat(from).as("the ladders section").isNotNegative();
        return dom.substring(from, to);
    }

    private static int count(String text, String what) {
        Matcher m = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    @Test
    void kernelRxePingpongDrawsAHundredArrows() {
        HeadlessChromium.assumeInstalled();
        Path page = page(GoldenCaptures.file("guest_pingpong.pcap"));
        HeadlessChromium.Load load = loadCleanly(page.toUri().toString());
        int packets = PageData.read(page).packets().size();
        assertThat(packets).isEqualTo(100);
        assertThat(load.dom()).contains("data-arrows=\"" + packets + "\"");
        String ladders = ladders(load);
        assertThat(count(ladders, "<g class=\"arrow ")).isEqualTo(packets);
        assertThat(count(ladders, "<g class=\"msg ")).isEqualTo(20);
        assertThat(count(ladders, "<svg class=\"ladder\"")).isEqualTo(1);
    }

    @Test
    void everyMarkIsDrawnAndASelectedPacketShowsItsHeaders() {
        HeadlessChromium.assumeInstalled();
        Path capture = dir.resolve("marked.pcapng");
        MarkedCapture.write(capture);
        Path page = page(capture);
        // Packet 8 is the RNR NAK: selected through the URL, its headers fill the detail panel.
        HeadlessChromium.Load load = loadCleanly(page.toUri() + "#p8");
        assertThat(load.dom()).contains("data-arrows=\"" + MarkedCapture.PACKETS + "\"");
        String ladders = ladders(load);
        assertThat(count(ladders, "<g class=\"arrow ")).isEqualTo(MarkedCapture.PACKETS);
        assertThat(count(ladders, "<g class=\"arrow req retx\"")).isEqualTo(4);
        assertThat(count(ladders, "<g class=\"arrow ack nak\"")).isEqualTo(1);
        assertThat(count(ladders, "<g class=\"arrow ack rnr sel\"")).isEqualTo(1);
        assertThat(count(ladders, "<g class=\"arrow req drop\"")).isEqualTo(1);
        assertThat(count(ladders, "<g class=\"arrow req lost\"")).isEqualTo(1);
        assertThat(count(ladders, "<g class=\"wait\"")).isEqualTo(1);
        String tree = load.dom().substring(load.dom().indexOf("<div id=\"tree\">"));
        assertThat(tree).contains("Base Transport Header (BTH)", "ACK Extended Transport Header (AETH)", "RNR NAK timer=14",
                "Internet Protocol version 4", "127.0.19.2", "User Datagram Protocol", "Invariant CRC (ICRC)", "Ethernet II");
    }

    @Test
    void theQpFilterKeepsOnlyTheConnectionsOfOneEndpoint() throws IOException {
        HeadlessChromium.assumeInstalled();
        // Kernel rxe's RC pingpong (QP 0x11) and UD pingpong (QP 0x12) in one capture: two connections.
        byte[] rc = Files.readAllBytes(GoldenCaptures.file("guest_pingpong.pcap"));
        byte[] ud = Files.readAllBytes(GoldenCaptures.file("guest_ud_pingpong.pcap"));
        assertThat(Arrays.copyOf(rc, 24)).as("same pcap header").isEqualTo(Arrays.copyOf(ud, 24));
        Path both = dir.resolve("both.pcap");
        Files.write(both, rc);
        Files.write(both, Arrays.copyOfRange(ud, 24, ud.length), StandardOpenOption.APPEND);
        Path page = page(both);
        assertThat(PageData.read(page).connections()).hasSize(2);

        // Choose the UD endpoint in the filter as a user would, then count what stays visible.
        String chooser = "<script>var f = document.getElementById('qp-filter'); f.value = '10.77.0.2 QP 0x000012';"
                + "f.dispatchEvent(new Event('change'));"
                + "function shown(sel) { return Array.prototype.filter.call(document.querySelectorAll(sel),"
                + " function (e) { return e.offsetParent !== null; }).length; }"
                + "document.body.setAttribute('data-shown', shown('section.conn') + '/' + shown('table.summary tbody tr'));"
                + "</script></body>";
        Path driven = Files.writeString(dir.resolve("driven.html"), Files.readString(page).replace("</body>", chooser));
        HeadlessChromium.Load load = loadCleanly(driven.toUri().toString());
        assertThat(load.dom()).contains("data-shown=\"1/2\"");
        String ladders = ladders(load);
        assertThat(ladders).contains("Connection 2: UD 10.77.0.2 QP 0x000012");
        assertThat(count(ladders, "style=\"display: none;\"")).isEqualTo(1);
    }

    /** A CE-marked packet's label starts with CE; a CNP's names the QP it is for; the detail shows DSCP and ECN. */
    @Test
    void aCeMarkAndACnpAreLabelled() throws IOException {
        HeadlessChromium.assumeInstalled();
        Path capture = dir.resolve("congested.pcapng");
        byte[] send = new byte[Opcode.RC_SEND_ONLY.headerLength() + 8 + IcrcCalculator.LENGTH];
        new BthFlyweight().wrap(ByteBuffer.wrap(send), 0).set(Opcode.RC_SEND_ONLY.code(), false, 0, BthFlyweight.DEFAULT_PKEY,
                0x11, true, 7);
        byte[] cnp = new byte[CnpWriter.LENGTH + IcrcCalculator.LENGTH];
        new CnpWriter().write(ByteBuffer.wrap(cnp), 0, BthFlyweight.DEFAULT_PKEY, 0x22);
        try (PcapngWriter w = new PcapngWriter(capture)) {
            int i = w.addInterface("lo", LinkType.ETHERNET, 0);
            byte[] marked = SamplePackets.frame(send, "10.9.0.1", "10.9.0.2", 49_152, 1, 26 << 2 | 3);
            byte[] notification = SamplePackets.frame(cnp, "10.9.0.2", "10.9.0.1", 49_153, 2, 48 << 2);
            w.write(i, 1_000, marked, 0, marked.length, null);
            w.write(i, 2_000, notification, 0, notification.length, null);
        }
        HeadlessChromium.Load load = loadCleanly(page(capture).toUri() + "#p0");
        String ladders = ladders(load);
        assertThat(ladders).contains("CE SEND_ONLY  psn 7  A=1", "CNP  for qp 0x000022");
        String tree = load.dom().substring(load.dom().indexOf("<div id=\"tree\">"));
        assertThat(tree).contains("DSCP", "26", "3 (CE)");
    }

    /**
     * A connection's ladder saved as SVG for slides: a standalone document in the SVG namespace with one arrow per
     * packet, every colour written into attributes (no class, no style-sheet variable left to resolve), the lanes
     * named; and chromium draws the file by itself.
     */
    @Test
    void aLadderIsSavedAsAStandaloneSvg() throws Exception {
        HeadlessChromium.assumeInstalled();
        Path page = page(GoldenCaptures.file("guest_pingpong.pcap"));
        HeadlessChromium.Load load = loadCleanly(page.toUri() + "#svg1");
        assertThat(load.dom()).contains("data-svg=\"1\"");
        String dom = load.dom();
        int from = dom.indexOf('>', dom.indexOf("<pre id=\"svg-source\"")) + 1;
        String text = dom.substring(from, dom.indexOf("</pre>", from)).replace("&lt;", "<").replace("&gt;", ">")
                .replace("&quot;", "\"").replace("&amp;", "&");
        assertThat(text).startsWith("<?xml").doesNotContain("var(--", "class=");

        javax.xml.parsers.DocumentBuilderFactory factory = javax.xml.parsers.DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        org.w3c.dom.Document svg = factory.newDocumentBuilder().parse(new org.xml.sax.InputSource(new java.io.StringReader(text)));
        org.w3c.dom.Element root = svg.getDocumentElement();
        assertThat(root.getNamespaceURI()).isEqualTo("http://www.w3.org/2000/svg");
        assertThat(root.getLocalName()).isEqualTo("svg");
        org.w3c.dom.NodeList groups = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        int arrows = 0;
        for (int i = 0; i < groups.getLength(); i++) {
            arrows += ((org.w3c.dom.Element) groups.item(i)).hasAttribute("data-i") ? 1 : 0;
        }
        assertThat(arrows).isEqualTo(PageData.read(page).packets().size());
        org.w3c.dom.NodeList heads = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polygon");
        assertThat(heads.getLength()).isPositive();
        for (int i = 0; i < heads.getLength(); i++) {
            assertThat(((org.w3c.dom.Element) heads.item(i)).getAttribute("fill")).startsWith("rgb(");
        }
        assertThat(text).contains("Connection 1: RC", "0x000011");

        Path file = Files.writeString(dir.resolve("ladder.svg"), text);
        Path png = dir.resolve("ladder.png");
        HeadlessChromium.screenshot(file.toUri().toString(), png, 1100, 800);
        assertThat(HeadlessChromium.inked(png)).as("share of the SVG's picture that is not background").isGreaterThan(0.02);
    }

    /** The check above can fail: a page whose script throws is caught by its console message. */
    @Test
    void aScriptErrorIsSeen() throws IOException {
        HeadlessChromium.assumeInstalled();
        Path broken = Files.writeString(dir.resolve("broken.html"),
                "<!DOCTYPE html><html><body><script>undefinedFunction();</script></body></html>");
        HeadlessChromium.Load load = HeadlessChromium.dumpDom(broken.toUri().toString());
        assertThat(load.consoleMessages()).anySatisfy(m -> assertThat(m).contains("Uncaught ReferenceError"));
    }
}
