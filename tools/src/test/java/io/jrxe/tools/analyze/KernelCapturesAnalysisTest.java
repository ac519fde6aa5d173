package io.jrxe.tools.analyze;

import io.jrxe.wire.capture.GoldenCaptures;
import io.jrxe.wire.capture.RequestSendings;
import io.jrxe.wire.capture.Tshark;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe analyze` on kernel rxe's captures in testdata, which nobody here wrote: the clean runs are clean and their
 * messages and bytes are those of the commands their READMEs name; the CM captures' handshakes, rejection and
 * disconnections are found with their frames; and the capture where rxe drops every FLUSH jrxe sends (its ICRC is
 * the IBTA's, not rxe's) shows what happened: the same PSN sent again at each ACK timeout, never acknowledged.
 */
class KernelCapturesAnalysisTest {
    /** Per capture name: the messages of each operation and the data bytes, both sides together (the READMEs' commands). */
    private static final Map<String, Map<String, Long>> MESSAGES = Map.of(
            "guest_pingpong.pcap", Map.of("SEND", 20L, "bytes", 20L * 4096),
            "v6_pingpong.pcap", Map.of("SEND", 20L, "bytes", 20L * 4096),
            "guest_ud_pingpong.pcap", Map.of("SEND", 10L, "bytes", 10L * 512),
            "guest_write_bw.pcap", Map.of("RDMA_WRITE", 20L, "bytes", 20L * 8192),
            "v6_write_bw.pcap", Map.of("RDMA_WRITE", 20L, "bytes", 20L * 8192),
            "mtu4k_write_bw.pcap", Map.of("RDMA_WRITE", 10L, "bytes", 10L * 65536),
            "guest_read_bw.pcap", Map.of("RDMA_READ_REQUEST", 20L, "bytes", 20L * 65536),
            "guest_atomic_fadd.pcap", Map.of("FETCH_ADD", 20L, "bytes", 0L),
            "odp_pingpong.pcap", Map.of("SEND", 6L, "bytes", 6L * 4096));

    /** The lab's addresses in testdata/rxe-faults: rxe0's and jrxe's. */
    private static final String RXE0 = "10.77.0.2";
    private static final String JRXE = "10.77.0.1";
    /** rxe0's sent_pkts and send_rnr_err over the two runs of testdata/rxe-faults/README.md. */
    private static final long NETEM_RUN_SENT_BY_RXE0 = 615;
    private static final long RNR_RUN_NAKS_BY_RXE0 = 3;

    @Test
    void everyCleanRunIsCleanWithItsCommandsMessagesAndBytes() {
        for (Path capture : GoldenCaptures.files()) {
            AnalysisJson a = AnalysisJson.of(capture);
            String name = capture.getFileName().toString();
            assertThat(a.status()).as(name).isZero();
            assertThat(a.findings()).as(name).isEmpty();
            assertThat(a.connections()).as(name).hasSize(1);
            Map<String, Long> expected = MESSAGES.get(name);
            assertThat(expected).as("the messages of %s", name).isNotNull();
            long bytes = 0;
            for (Map<String, Object> side : AnalysisJson.sides(a.connections().getFirst())) {
                bytes += AnalysisJson.number(side, "data_bytes");
                assertThat(AnalysisJson.number(side, "resent_packets")).as(name).isZero();
            }
            assertThat(bytes).as(name).isEqualTo(expected.get("bytes"));
            for (Map.Entry<String, Long> e : expected.entrySet()) {
                if (!e.getKey().equals("bytes")) {
                    long n = 0;
                    for (Map<String, Object> side : AnalysisJson.sides(a.connections().getFirst())) {
                        Map<String, Object> ops = AnalysisJson.object(side, "messages_by_operation");
                        n += ops.containsKey(e.getKey()) ? AnalysisJson.number(ops, e.getKey()) : 0;
                    }
                    assertThat(n).as("%s %s messages", name, e.getKey()).isEqualTo(e.getValue());
                }
            }
        }
    }

    @Test
    void rpingConnectsAndDisconnectsThroughTheCm() {
        for (Path capture : List.of(GoldenCaptures.cmFile("cm_rping_v4.pcap"),
                GoldenCaptures.trixieDirectory().resolve("cm/cm_rping_v4.pcap"))) {
            AnalysisJson a = AnalysisJson.of(capture);
            assertThat(a.status()).as(capture.toString()).isZero();
            List<Map<String, Object>> cm = a.partFindings("cm");
            assertThat(cm).extracting(f -> f.get("kind")).containsExactly("cm_handshake", "cm_disconnect");
            // testdata/rxe-cm/README.md: REQ, REP, RTU are the first three frames, DREQ and DREP the last two.
            assertThat(cm.getFirst().get("text")).asString().contains("REQ #1", "REP #2", "RTU #3", "service TCP:7174",
                    "connected");
            assertThat(cm.getLast().get("text")).asString().contains("DREQ #40", "DREP #41", "disconnected");
        }
    }

    @Test
    void ucmatoseMakesTwoConnections() {
        AnalysisJson a = AnalysisJson.of(GoldenCaptures.cmFile("cm_ucmatose.pcap"));
        assertThat(a.status()).isZero();
        assertThat(a.connections()).hasSize(2);
        assertThat(a.partFindings("cm")).extracting(f -> f.get("kind"))
                .containsExactlyInAnyOrder("cm_handshake", "cm_handshake", "cm_disconnect", "cm_disconnect");
    }

    @Test
    void aRefusedConnectionIsItsRejectionAndReason() {
        AnalysisJson a = AnalysisJson.of(GoldenCaptures.cmFile("cm_refused.pcap"));
        assertThat(a.status()).isEqualTo(1);
        assertThat(a.partFindings("cm")).singleElement().satisfies(f -> {
            assertThat(f.get("kind")).isEqualTo("cm_reject");
            assertThat(AnalysisJson.number(f, "frame")).isEqualTo(2);
            assertThat(f.get("text")).asString().contains("REQ #1", "service TCP:7999", "reason 8 (invalid service ID)");
        });
    }

    @Test
    void aFlushRxeDropsIsSentAgainAtEachAckTimeoutAndNeverAcknowledged() {
        // testdata/rxe-trixie/README.md: rxe0 drops jrxe's FLUSH each time, the requester retries until RETRY_EXC_ERR.
        AnalysisJson a = AnalysisJson.of(GoldenCaptures.trixieDirectory().resolve("placement/jrxe_requester_ibta_icrc_v6.pcap"));
        assertThat(a.status()).isEqualTo(1);
        List<AnalysisJson.Found> resent = a.findings("resent");
        assertThat(resent).isNotEmpty().allSatisfy(f -> assertThat(f.cause()).isEqualTo("ack_timeout"));
        AnalysisJson.Found flushRetries = resent.getLast();
        assertThat(flushRetries.text()).contains("rounds, each after the ACK timeout");
        long frames = AnalysisJson.number(AnalysisJson.object(a.data(), "capture"), "frames");
        assertThat(a.findings("unacknowledged")).singleElement().satisfies(f -> {
            assertThat(f.number("psn_first")).isEqualTo(flushRetries.number("psn_first"));
            assertThat(f.number("frame")).isEqualTo(frames);
        });
        assertThat(a.findings("psn_gap")).isEmpty();
    }

    /**
     * testdata/rxe-faults/README.md: rxe0 (10.77.0.2) wrote through netem's loss and copies; rxe0's sent_pkts went up
     * by {@value #NETEM_RUN_SENT_BY_RXE0}. The copies, gap PSNs, resends and jrxe's sequence NAKs analyze reports are
     * the ones tshark's IPv4 identifications and AETH syndromes give ({@link RequestSendings}).
     */
    @Test
    void netemsLossesAndCopiesOfRxesWritesAreWhatTsharkAndRxeSay() {
        Tshark.assumeInstalled();
        Path capture = GoldenCaptures.faultsDirectory().resolve("netem_write_bw.pcap");
        RequestSendings truth = RequestSendings.of(capture, RXE0);
        assertThat(NETEM_RUN_SENT_BY_RXE0 - (truth.frames() - truth.copies())).as("lost before the capture point")
                .isGreaterThanOrEqualTo(truth.gapPsns().size());
        AnalysisJson a = AnalysisJson.of(capture);
        assertThat(a.status()).isEqualTo(1);
        Map<String, Object> rxe0 = side(a, RXE0);
        assertThat(AnalysisJson.number(rxe0, "duplicate_packets")).isEqualTo(truth.copies()).isPositive();
        assertThat(AnalysisJson.number(rxe0, "resent_packets")).isEqualTo(truth.resends());
        Set<Integer> gaps = new TreeSet<>();
        for (AnalysisJson.Found f : a.findings("psn_gap")) {
            assertThat(f.side()).isEqualTo(RXE0);
            for (long psn = f.number("psn_first"); psn <= f.number("psn_last"); psn++) {
                gaps.add((int) psn);
            }
        }
        assertThat(gaps).isEqualTo(truth.gapPsns()).isNotEmpty();
        assertThat(a.findings("sequence_nak")).hasSize((int) Tshark.aethSyndromes(capture, JRXE, 0x60, 0x61));
    }

    /** testdata/rxe-faults/README.md: rxe0's send_rnr_err went up by {@value #RNR_RUN_NAKS_BY_RXE0}; analyze counts as many. */
    @Test
    void rxesRnrNaksAreTheOnesItCounted() {
        Tshark.assumeInstalled();
        Path capture = GoldenCaptures.faultsDirectory().resolve("rnr_send_bw.pcap");
        assertThat(Tshark.aethSyndromes(capture, RXE0, 0x20, 0x40)).isEqualTo(RNR_RUN_NAKS_BY_RXE0);
        AnalysisJson a = AnalysisJson.of(capture);
        assertThat(a.findings("rnr_nak")).allSatisfy(f -> assertThat(f.side()).isEqualTo(JRXE))
                .extracting(f -> f.number("count")).containsOnly(1L).hasSize((int) RNR_RUN_NAKS_BY_RXE0);
    }

    private static Map<String, Object> side(AnalysisJson a, String address) {
        return a.connections().stream().flatMap(c -> AnalysisJson.sides(c).stream())
                .filter(s -> address.equals(s.get("address"))).findFirst().orElseThrow();
    }
}
