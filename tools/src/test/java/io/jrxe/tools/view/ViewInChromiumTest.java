package io.jrxe.tools.view;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.GoldenCaptures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
