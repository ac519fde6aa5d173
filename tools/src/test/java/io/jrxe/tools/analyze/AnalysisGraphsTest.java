package io.jrxe.tools.analyze;

import io.jrxe.tools.common.InProcess;
import io.jrxe.wire.capture.GoldenCaptures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe analyze --graphs DIR`: a time-sequence graph per side that sent requests and a goodput graph per connection,
 * as SVG files that an XML parser reads; a clean kernel rxe transfer climbs one PSN a packet with nothing marked, and
 * a transfer through losses, copies and an RNR NAK has each of those marked, as often as the analysis counted them.
 */
class AnalysisGraphsTest {
    @TempDir
    Path dir;

    private List<Path> graphs(Path capture) {
        Path into = dir.resolve(capture.getFileName() + "-graphs");
        InProcess r = InProcess.run("analyze", capture.toString(), "--graphs", into.toString());
        assertThat(r.status()).as(r.toString()).isBetween(0, 1);
        List<Path> listed = r.lines().stream().filter(l -> l.startsWith("graph: ")).map(l -> Path.of(l.substring(7))).toList();
        assertThat(listed).allSatisfy(p -> assertThat(p).exists().hasParent(into));
        return listed;
    }

    private static Document svg(Path file) throws Exception {
        Document d = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(file.toFile());
        assertThat(d.getDocumentElement().getTagName()).isEqualTo("svg");
        return d;
    }

    /** The marks of {@code cssClass} in the plot (the legend's sample mark left out). */
    private static List<Element> marks(Document d, String cssClass) {
        List<Element> found = new ArrayList<>();
        NodeList all = d.getElementsByTagName("*");
        for (int i = 0; i < all.getLength(); i++) {
            Element e = (Element) all.item(i);
            if (e.getAttribute("class").equals(cssClass) && !((Element) e.getParentNode()).getAttribute("class").equals("legend")) {
                found.add(e);
            }
        }
        return found;
    }

    private static String legend(Document d) {
        NodeList texts = d.getElementsByTagName("text");
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < texts.getLength(); i++) {
            sb.append(texts.item(i).getTextContent()).append('\n');
        }
        return sb.toString();
    }

    @Test
    void aCleanKernelTransferClimbsOnePsnAPacketWithNothingMarked() throws Exception {
        Path capture = GoldenCaptures.file("guest_write_bw.pcap");
        List<Path> files = graphs(capture);
        assertThat(files).extracting(p -> p.getFileName().toString())
                .containsExactly("conn1-A-time-sequence.svg", "conn1-throughput.svg");
        Document ts = svg(files.get(0));
        for (String mark : List.of("resent", "nak", "rnr", "wait", "gap", "dup", "late")) {
            assertThat(marks(ts, mark)).as(mark).isEmpty();
        }
        // Each new request is one PSN higher: the highest point of the series is the count of request packets less one.
        CaptureAnalysis a = CaptureAnalysis.of(capture, 0);
        RequesterTrack requester = a.connections().getFirst().requesters[0];
        long[] psns = requester.graph.sent.points()[1];
        assertThat(psns[psns.length - 1]).isEqualTo(requester.newRequestPackets - 1);
        for (int i = 1; i < psns.length; i++) {
            assertThat(psns[i]).as("point %d", i).isGreaterThan(psns[i - 1]);
        }
        Document rate = svg(files.get(1));
        assertThat(marks(rate, "rate0")).hasSize(1);
        assertThat(legend(rate)).contains("163,840 B in slices of");
    }

    @Test
    void lossesCopiesAndTheRnrNakAreMarkedAsOftenAsCounted() throws Exception {
        Path all = dir.resolve("all.pcapng");
        ScriptedFaults.write(all, dir.resolve("requester.pcapng"), dir.resolve("responder.pcapng"));
        Path responderPort = dir.resolve("responder.pcapng");
        CaptureAnalysis a = CaptureAnalysis.of(responderPort, 0);
        TimeSequence g = a.connections().getFirst().requesters[0].graph;
        Document ts = svg(graphs(responderPort).getFirst());
        String legend = legend(ts);
        assertThat(g.gaps.added()).isPositive();
        assertThat(g.resent.added()).isPositive();
        assertThat(g.rnrNaks.added()).isPositive();
        assertThat(g.duplicates.added()).isPositive();
        assertThat(g.waits).isNotEmpty();
        for (var series : List.of(new Object[] {"gap", g.gaps}, new Object[] {"resent", g.resent},
                new Object[] {"rnr", g.rnrNaks}, new Object[] {"dup", g.duplicates}, new Object[] {"nak", g.naks})) {
            PointSeries s = (PointSeries) series[1];
            assertThat(marks(ts, (String) series[0])).as((String) series[0]).hasSize(s.points()[0].length);
            assertThat(legend).contains("(" + s.added());
        }
        assertThat(marks(ts, "wait")).hasSize(g.waits.size());
    }

    @Test
    void aSeriesOfMorePointsThanRoomSaysHowManyItDraws() {
        PointSeries s = new PointSeries(16);
        for (int i = 0; i < 10_000; i++) {
            s.add(1_000L * i, i % 97);
        }
        long[][] kept = s.points();
        assertThat(kept[0].length).isLessThanOrEqualTo(32).isPositive();
        // Every slice keeps its lowest and highest: the envelope survives.
        assertThat(kept[1]).contains(0L, 96L);
        assertThat(s.added()).isEqualTo(10_000);
    }

    @Test
    void graphsThatCannotBeWrittenAreOneLineAndStatusTwo() throws Exception {
        Path blocker = Files.writeString(dir.resolve("file"), "not a folder");
        InProcess r = InProcess.run("analyze", GoldenCaptures.file("guest_pingpong.pcap").toString(), "--graphs",
                blocker.resolve("graphs").toString());
        assertThat(r.status()).as(r.toString()).isEqualTo(2);
        assertThat(r.err()).as(r.toString()).startsWith("jrxe analyze: cannot write the graphs into ").doesNotContain("\tat ");
    }
}
