package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Server;
import io.jrxe.wire.capture.RequestSendings;
import io.jrxe.wire.capture.Tshark;
import io.jrxe.wire.dissect.StrictJson;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe analyze` on kernel rxe's traffic as a third party captured it, against what is known without it:
 * losses, copies and resends, and RNR NAKs. For the first, rxe0 in the guest writes to jrxe (ib_write_bw
 * against jrxe's write-bw) through netem, which delays, loses and duplicates what the guest sends; tcpdump
 * records the bridge on the host's side of netem.
 * <p>
 * The truth comes from programs nobody here wrote: rxe0's own count of the packets it sent, and
 * tshark's reading of the capture ({@link RequestSendings}: netem's copies, the PSNs lost at their first
 * sending, the resends, by each packet's IPv4 identification; jrxe's sequence NAKs by their AETH
 * syndrome). The packets lost before the capture point are rxe0's packets sent less the frames captured
 * that are not copies: netem's losses, and any the host's tap dropped in a burst. analyze must find the
 * same copies, gaps, resends and NAKs.
 */
@ExtendWith(LabExtension.class)
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class KernelRxeCaptureAnalysisTest {
    private static final Path TCPDUMP = Path.of("/usr/bin/tcpdump");
    private static final String RXE0_SENT_PKTS = "hw_counters/sent_pkts";
    /** RNR NAKs rxe0's responder sent. */
    private static final String RXE0_SEND_RNR = "hw_counters/send_rnr_err";
    private static final String NETEM = "delay 2ms loss 3% duplicate 2%";
    private static final int PSN_MASK = 0xFFFFFF;
    /** AETH syndromes: the PSN sequence error NAK, and the RNR NAKs (001xxxxx). */
    private static final int SEQUENCE_NAK = 0x60;
    private static final int RNR_NAKS = 0x20;
    private static final int RNR_NAKS_END = 0x40;

    @Test
    void analyzeFindsTheLossesCopiesAndResendsNetemCausedInRxesWrites(Lab lab, @TempDir Path dir) throws Exception {
        Path capture = dir.resolve("lossy-write.pcap");
        long sentBefore = lab.guestCounter(RXE0_SENT_PKTS);
        long netemDropped;
        try (GuestLoss netem = GuestLoss.netem(lab, NETEM)) {
            recordBridge(lab, capture, () -> Pairings.bandwidth(lab, "write", Server.JRXE, 18696, Gids.IPV4, 20, ""));
            netemDropped = netem.dropped();
        }
        long rxeSent = lab.guestCounter(RXE0_SENT_PKTS) - sentBefore;
        RequestSendings truth = RequestSendings.of(capture, Lab.GUEST4);
        long lost = rxeSent - (truth.frames() - truth.copies());
        long sequenceNaks = Tshark.aethSyndromes(capture, Lab.HOST4, SEQUENCE_NAK, SEQUENCE_NAK + 1);
        System.out.printf("interop: netem (%s) on rxe0's WRITEs: rxe0 sent %d, captured %d: %d copies, %d PSNs lost at their "
                + "first sending, %d resends, %d sequence NAKs from jrxe; %d lost in all (netem dropped %d packets of every "
                + "kind)%n", NETEM, rxeSent, truth.frames(), truth.copies(), truth.gapPsns().size(), truth.resends(), sequenceNaks, lost,
                netemDropped);
        assertThat(truth.gapPsns()).as("netem lost some of rxe0's first sendings").isNotEmpty();
        assertThat(truth.copies()).as("netem copied some of rxe0's packets").isPositive();
        assertThat(lost).as("packets lost before the capture point").isGreaterThanOrEqualTo(truth.gapPsns().size());

        Map<String, Object> guestSide = side(analysis(capture), Lab.GUEST4);
        assertThat(number(guestSide, "duplicate_packets")).as("copies: %s", guestSide).isEqualTo(truth.copies());
        assertThat(gapPsns(guestSide)).as("PSNs not captured at their first sending").isEqualTo(truth.gapPsns());
        assertThat(number(guestSide, "resent_packets")).as("resends: %s", guestSide).isEqualTo(truth.resends());
        assertThat(number(guestSide, "new_request_packets") + number(guestSide, "resent_packets") + number(guestSide, "late_packets")
                + number(guestSide, "duplicate_packets")).as("every frame of rxe0's accounted for").isEqualTo(truth.frames());
        assertThat(findings(guestSide, "sequence_nak")).as("sequence NAK episodes").isEqualTo(sequenceNaks).isPositive();
    }

    /**
     * RNR NAKs from rxe0: ib_send_bw serves with a receive queue of 2 (-r 1) while jrxe's send-bw keeps 16 SENDs of
     * 64 KiB in flight, so rxe0 refuses some with an RNR NAK: from 1 to 33 in a run of 50 SENDs, and once none, so
     * the run goes again (at most three times, each with a capture of its own) until the capture holds one. The RNR
     * NAKs analyze counts in its RNR episodes are the ones tshark finds (AETH syndrome 001xxxxx). rxe0 counts one
     * ({@code send_rnr_err}) before it leaves the guest, and the host's tap loses packets in bursts (see the test
     * above), so the capture on the bridge holds at most that many (once 3 of 4).
     */
    @Test
    void analyzeCountsTheRnrNaksRxe0Sent(Lab lab, @TempDir Path dir) throws Exception {
        Path capture = null;
        long rnrSent = 0;
        long rnrCaptured = 0;
        for (int run = 1; run <= 3 && rnrCaptured == 0; run++) {
            capture = dir.resolve("rnr-send-" + run + ".pcap");
            long rnrBefore = lab.guestCounter(RXE0_SEND_RNR);
            int port = 18697 + run - 1;
            recordBridge(lab, capture, () -> Pairings.bandwidth(lab, "send", Server.KERNEL, port, Gids.IPV4, 50, "-r 1"));
            rnrSent = lab.guestCounter(RXE0_SEND_RNR) - rnrBefore;
            rnrCaptured = Tshark.aethSyndromes(capture, Lab.GUEST4, RNR_NAKS, RNR_NAKS_END);
            System.out.printf("interop: run %d of jrxe's SENDs into rxe0's 2 receives: rxe0 counted %d RNR NAKs, the "
                    + "capture holds %d%n", run, rnrSent, rnrCaptured);
        }
        Map<String, Object> jrxeSide = side(analysis(capture), Lab.HOST4);
        long rnrAnalyzed = countSum(jrxeSide, "rnr_nak");
        System.out.printf("interop: RNR NAKs of rxe0 to jrxe's SENDs: rxe0 counted %d, tshark found %d, analyze %d in %d episodes%n",
                rnrSent, rnrCaptured, rnrAnalyzed, findings(jrxeSide, "rnr_nak"));
        assertThat(rnrCaptured).as("RNR NAKs in the capture").isPositive().isLessThanOrEqualTo(rnrSent);
        assertThat(rnrAnalyzed).as("RNR NAKs in analyze's episodes").isEqualTo(rnrCaptured);
    }

    /** Traffic in the lab while the bridge is recorded. */
    private interface Traffic {
        void run() throws Exception;
    }

    /**
     * Runs {@code traffic} while tcpdump records the lab's bridge (RoCE only, whole frames) into {@code capture}, and
     * checks that tcpdump lost none of it; skips the test where tcpdump or tshark is missing.
     */
    private static void recordBridge(Lab lab, Path capture, Traffic traffic) throws Exception {
        ExternalTool.assumeInstalled(TCPDUMP, "tcpdump");
        ExternalTool.assumeInstalled(ExternalTool.TSHARK, "tshark");
        Files.createFile(capture);
        try (Job tcpdump = lab.inNamespace("tcpdump", "tcpdump", "-i", "jrxe-br0", "-B", "32768", "-U", "-n", "-w",
                capture.toString(), "udp port 4791")) {
            tcpdump.awaitOutput("listening on", Duration.ofSeconds(30));
            traffic.run();
            Job.Result stopped = tcpdump.stop(Duration.ofSeconds(30));
            assertThat(stopped.output()).as("%s", stopped).contains("0 packets dropped by kernel");
        }
    }

    /**
     * What `jrxe analyze --json` says of {@code capture}, which must be something abnormal. In a reactor build the
     * JVM may print SLF4J's notice of two bindings first (the tools jar's manifest class path names its lib/ beside
     * the repository's copy), so the document is read from its first line.
     */
    private static Map<String, Object> analysis(Path capture) throws InterruptedException {
        Job.Result analyzed = Lab.jrxeHere("analyze", "--json", "--max-findings", "0", capture.toString());
        assertThat(analyzed.exitCode()).as("analyze found something abnormal: %s", analyzed).isEqualTo(1);
        String out = analyzed.output();
        int document = out.startsWith("{") ? 0 : out.indexOf("\n{\n") + 1;
        assertThat(out.startsWith("{", document)).as("a JSON document in %s", analyzed).isTrue();
        return StrictJson.parseObject(out.substring(document));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> side(Map<String, Object> analysis, String address) {
        for (Object c : (List<Object>) analysis.get("connections")) {
            for (Object s : (List<Object>) ((Map<String, Object>) c).get("sides")) {
                Map<String, Object> side = (Map<String, Object>) s;
                if (address.equals(side.get("address"))) {
                    return side;
                }
            }
        }
        throw new AssertionError("no connection side of " + address + " in " + analysis);
    }

    @SuppressWarnings("unchecked")
    private static Set<Integer> gapPsns(Map<String, Object> side) {
        Set<Integer> psns = new TreeSet<>();
        for (Object f : (List<Object>) side.get("findings")) {
            Map<String, Object> finding = (Map<String, Object>) f;
            if ("psn_gap".equals(finding.get("kind"))) {
                long from = number(finding, "psn_first");
                long count = ((number(finding, "psn_last") - from) & PSN_MASK) + 1;
                for (long i = 0; i < count; i++) {
                    psns.add((int) ((from + i) & PSN_MASK));
                }
            }
        }
        return psns;
    }

    @SuppressWarnings("unchecked")
    private static long findings(Map<String, Object> side, String kind) {
        return ((List<Object>) side.get("findings")).stream().filter(f -> kind.equals(((Map<String, Object>) f).get("kind"))).count();
    }

    /** The sum of the counts of {@code side}'s findings of {@code kind}. */
    @SuppressWarnings("unchecked")
    private static long countSum(Map<String, Object> side, String kind) {
        return ((List<Object>) side.get("findings")).stream().map(f -> (Map<String, Object>) f)
                .filter(f -> kind.equals(f.get("kind"))).mapToLong(f -> number(f, "count")).sum();
    }

    private static long number(Map<String, Object> object, String key) {
        return ((Number) object.get(key)).longValue();
    }
}
