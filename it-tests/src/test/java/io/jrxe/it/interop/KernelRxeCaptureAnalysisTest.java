package io.jrxe.it.interop;

import io.jrxe.it.interop.Pairings.Gids;
import io.jrxe.it.interop.Pairings.Server;
import io.jrxe.wire.dissect.StrictJson;
import io.jrxe.wire.testing.ExternalTool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
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
 * tshark's reading of the capture, in which each IPv4 packet carries the identification rxe0 gave it
 * (a resend gets a new one, a copy netem made keeps it). From these:
 * <ul>
 *   <li>netem's copies: frames whose identification and PSN an earlier frame had;</li>
 *   <li>the PSNs lost at their first sending: those passed over by a higher PSN before they were seen;</li>
 *   <li>the resends: every sending of a PSN after its first, seen or lost (a lost PSN's first capture is one);</li>
 *   <li>the packets lost before the capture point: rxe0's packets sent, less the frames captured that are
 *   not copies (netem's losses, and any the host's tap dropped in a burst);</li>
 *   <li>jrxe's sequence NAKs, by their AETH syndrome.</li>
 * </ul>
 * analyze must find the same copies, gaps, resends and NAKs.
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

    @Test
    void analyzeFindsTheLossesCopiesAndResendsNetemCausedInRxesWrites(Lab lab, @TempDir Path dir) throws Exception {
        ExternalTool.assumeInstalled(TCPDUMP, "tcpdump");
        ExternalTool.assumeInstalled(ExternalTool.TSHARK, "tshark");
        Path capture = dir.resolve("lossy-write.pcap");
        Files.createFile(capture);
        long sentBefore = lab.guestCounter(RXE0_SENT_PKTS);
        long netemDropped;
        try (GuestLoss netem = GuestLoss.netem(lab, NETEM);
             Job tcpdump = lab.inNamespace("tcpdump", "tcpdump", "-i", "jrxe-br0", "-B", "32768", "-U", "-n", "-w",
                     capture.toString(), "udp port 4791")) {
            tcpdump.awaitOutput("listening on", Duration.ofSeconds(30));
            Pairings.bandwidth(lab, "write", Server.JRXE, 18696, Gids.IPV4, 20, "");
            Job.Result stopped = tcpdump.stop(Duration.ofSeconds(30));
            assertThat(stopped.output()).as("%s", stopped).contains("0 packets dropped by kernel");
            netemDropped = netem.dropped();
        }
        long rxeSent = lab.guestCounter(RXE0_SENT_PKTS) - sentBefore;
        Truth truth = Truth.of(capture, Lab.GUEST4);
        long lost = rxeSent - (truth.frames - truth.copies);
        long sequenceNaks = ExternalTool.runOk(List.of(ExternalTool.TSHARK.toString(), "-n", "-r", capture.toString(), "-Y",
                "ip.src == " + Lab.HOST4 + " && infiniband.aeth.syndrome == 0x60"), 120).lines().count();
        System.out.printf("interop: netem (%s) on rxe0's WRITEs: rxe0 sent %d, captured %d: %d copies, %d PSNs lost at their "
                + "first sending, %d resends, %d sequence NAKs from jrxe; %d lost in all (netem dropped %d packets of every "
                + "kind)%n", NETEM, rxeSent, truth.frames, truth.copies, truth.gapPsns.size(), truth.resends, sequenceNaks, lost,
                netemDropped);
        assertThat(truth.gapPsns).as("netem lost some of rxe0's first sendings").isNotEmpty();
        assertThat(truth.copies).as("netem copied some of rxe0's packets").isPositive();
        assertThat(lost).as("packets lost before the capture point").isGreaterThanOrEqualTo(truth.gapPsns.size());

        Job.Result analyzed = Lab.jrxeHere("analyze", "--json", "--max-findings", "0", capture.toString());
        assertThat(analyzed.exitCode()).as("analyze found something abnormal: %s", analyzed).isEqualTo(1);
        Map<String, Object> guestSide = side(StrictJson.parseObject(analyzed.output()), Lab.GUEST4);
        assertThat(number(guestSide, "duplicate_packets")).as("copies: %s", guestSide).isEqualTo(truth.copies);
        assertThat(gapPsns(guestSide)).as("PSNs not captured at their first sending").isEqualTo(truth.gapPsns);
        assertThat(number(guestSide, "resent_packets")).as("resends: %s", guestSide).isEqualTo(truth.resends);
        assertThat(number(guestSide, "new_request_packets") + number(guestSide, "resent_packets") + number(guestSide, "late_packets")
                + number(guestSide, "duplicate_packets")).as("every frame of rxe0's accounted for").isEqualTo(truth.frames);
        assertThat(findings(guestSide, "sequence_nak")).as("sequence NAK episodes").isEqualTo(sequenceNaks).isPositive();
    }

    /**
     * RNR NAKs from rxe0: ib_send_bw serves with a receive queue of 2 (-r 1) while jrxe's send-bw keeps 16 SENDs of
     * 64 KiB in flight, so rxe0 refuses many with an RNR NAK. The RNR NAKs analyze counts in its RNR episodes are
     * the ones tshark finds (AETH syndrome 001xxxxx) and the ones rxe0 counted sending ({@code send_rnr_err}).
     */
    @Test
    void analyzeCountsTheRnrNaksRxe0Sent(Lab lab, @TempDir Path dir) throws Exception {
        ExternalTool.assumeInstalled(TCPDUMP, "tcpdump");
        ExternalTool.assumeInstalled(ExternalTool.TSHARK, "tshark");
        Path capture = dir.resolve("rnr-send.pcap");
        Files.createFile(capture);
        long rnrBefore = lab.guestCounter(RXE0_SEND_RNR);
        try (Job tcpdump = lab.inNamespace("tcpdump", "tcpdump", "-i", "jrxe-br0", "-B", "32768", "-U", "-n", "-w",
                capture.toString(), "udp port 4791")) {
            tcpdump.awaitOutput("listening on", Duration.ofSeconds(30));
            Pairings.bandwidth(lab, "send", Server.KERNEL, 18697, Gids.IPV4, 50, "-r 1");
            Job.Result stopped = tcpdump.stop(Duration.ofSeconds(30));
            assertThat(stopped.output()).as("%s", stopped).contains("0 packets dropped by kernel");
        }
        long rnrSent = lab.guestCounter(RXE0_SEND_RNR) - rnrBefore;
        long rnrCaptured = ExternalTool.runOk(List.of(ExternalTool.TSHARK.toString(), "-n", "-r", capture.toString(), "-Y",
                "ip.src == " + Lab.GUEST4 + " && infiniband.aeth.syndrome >= 0x20 && infiniband.aeth.syndrome < 0x40"), 120)
                .lines().count();
        Job.Result analyzed = Lab.jrxeHere("analyze", "--json", "--max-findings", "0", capture.toString());
        assertThat(analyzed.exitCode()).as("analyze found something abnormal: %s", analyzed).isEqualTo(1);
        Map<String, Object> jrxeSide = side(StrictJson.parseObject(analyzed.output()), Lab.HOST4);
        long rnrAnalyzed = countSum(jrxeSide, "rnr_nak");
        System.out.printf("interop: RNR NAKs of rxe0 to jrxe's SENDs: rxe0 counted %d, tshark found %d, analyze %d in %d episodes%n",
                rnrSent, rnrCaptured, rnrAnalyzed, findings(jrxeSide, "rnr_nak"));
        assertThat(rnrCaptured).as("RNR NAKs in the capture").isPositive().isEqualTo(rnrSent);
        assertThat(rnrAnalyzed).as("RNR NAKs in analyze's episodes").isEqualTo(rnrCaptured);
    }

    /** What tshark reads in the capture of the packets {@code source} sent. */
    private record Truth(long frames, long copies, long resends, Set<Integer> gapPsns) {
        static Truth of(Path capture, String source) {
            String fields = ExternalTool.runOk(List.of(ExternalTool.TSHARK.toString(), "-n", "-r", capture.toString(), "-Y",
                    "ip.src == " + source + " && infiniband", "-T", "fields", "-e", "ip.id", "-e", "infiniband.bth.psn"), 120);
            Set<String> identifications = new HashSet<>();
            Set<Integer> seen = new HashSet<>();
            Set<Integer> gaps = new TreeSet<>();
            long frames = 0;
            long copies = 0;
            long sendings = 0;
            int first = -1;
            int highest = -1;
            for (String line : fields.lines().toList()) {
                String[] f = line.split("\t");
                int psn = Integer.parseInt(f[1]);
                frames++;
                if (!identifications.add(line)) {
                    copies++;
                    continue;
                }
                if (first < 0) {
                    first = psn;
                }
                int relative = (psn - first) & PSN_MASK;
                sendings++;
                if (seen.add(psn) && relative > highest) {
                    for (int r = highest + 1; r < relative; r++) {
                        gaps.add((first + r) & PSN_MASK);
                    }
                    highest = relative;
                }
            }
            assertThat(frames).as("rxe0's packets in the capture").isPositive();
            // Every sending but the first of each PSN; a lost first sending makes the PSN's first capture a resend.
            long resends = sendings - seen.size() + gaps.size();
            return new Truth(frames, copies, resends, gaps);
        }
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
