package io.jrxe.tools.analyze;

import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.sim.FaultListener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe analyze` on the captures of {@link ScriptedFaults}, where the truth is known three ways: the script (what
 * it made the network do), the network's own record of every fault, and jrxe's requester, which writes why it
 * sends a packet again as that packet's capture comment. Each of the three captures is a different capture
 * point: both ports (every packet's sending and arrival on record), the requester's port, the responder's port
 * (like tcpdump on the responder's host: requests after the network's loss).
 */
class ScriptedFaultsAnalysisTest {
    private static final String A = CapturedPair.A;
    private static final String B = CapturedPair.B;

    @TempDir
    static Path dir;
    private static ScriptedFaults script;

    @BeforeAll
    static void run() throws Exception {
        script = ScriptedFaults.write(dir.resolve("all.pcapng"), dir.resolve("requester.pcapng"),
                dir.resolve("responder.pcapng"));
    }

    private static int step(int i) {
        return script.stepPsns.get(i);
    }

    @Test
    void theNetworksRecordIsTheScript() {
        assertThat(script.faults).containsExactly(
                new CapturedPair.Fault(FaultListener.Fault.LOST, A, Opcode.RC_RDMA_WRITE_MIDDLE, step(0) + 1),
                new CapturedPair.Fault(FaultListener.Fault.LOST, B, Opcode.RC_RDMA_READ_RESPONSE_MIDDLE, step(1) + 1),
                new CapturedPair.Fault(FaultListener.Fault.LOST, B, Opcode.RC_ATOMIC_ACKNOWLEDGE, step(2)),
                new CapturedPair.Fault(FaultListener.Fault.DUPLICATED, A, Opcode.RC_SEND_FIRST, step(4)),
                new CapturedPair.Fault(FaultListener.Fault.DUPLICATED, A, Opcode.RC_SEND_LAST, step(4) + 1));
    }

    @Test
    void withEveryArrivalOnRecordEachLossAndCopyIsFoundWhereItHappened() {
        AnalysisJson a = AnalysisJson.of(dir.resolve("all.pcapng"));
        assertThat(a.status()).isEqualTo(1);
        List<AnalysisJson.Found> lost = a.findings("lost");
        assertThat(lost).extracting(f -> f.side() + " " + f.number("psn_first")).containsExactlyInAnyOrder(
                A + " " + (step(0) + 1), B + " " + (step(1) + 1), B + " " + step(2));
        assertThat(lost.get(0).text()).contains("RDMA_WRITE_MIDDLE");
        assertThat(a.findings("duplicate")).extracting(f -> f.side() + " " + f.number("psn_first"))
                .containsExactly(A + " " + step(4), A + " " + (step(4) + 1));
        assertThat(a.findings("duplicate")).allSatisfy(f -> assertThat(f.text()).contains("arrived twice"));
        theRequesterSideFindings(a);
        // Responses count where they arrived, as the requester saw them: the READ's last two response packets came
        // twice; the atomic's answer came once, its first sending having been lost.
        assertThat(a.findings("read_replay")).singleElement()
                .satisfies(f -> assertThat(f.number("psn_first")).isEqualTo(step(1) + 2));
        assertThat(a.findings("atomic_replay")).isEmpty();
    }

    @Test
    void atTheRequestersPortTheLostResponseIsAGapAndTheCausesAreJrxesOwn() {
        Path capture = dir.resolve("requester.pcapng");
        AnalysisJson a = AnalysisJson.of(capture);
        assertThat(a.findings("read_response_gap")).singleElement().satisfies(f -> {
            assertThat(f.number("psn_first")).isEqualTo(step(1) + 1);
            assertThat(f.number("psn_last")).isEqualTo(step(1) + 1);
        });
        assertThat(a.findings("psn_gap")).isEmpty();
        assertThat(a.findings("duplicate")).isEmpty();
        theRequesterSideFindings(a);
        // jrxe's requester notes why it sends each packet again; the analysis never reads those notes.
        ResendNotes.agree(capture, a.findings("resent"));
    }

    @Test
    void atTheRespondersPortTheLostRequestIsAGapAndTheCopiesHaveTheirOwnIpIdentification() {
        AnalysisJson a = AnalysisJson.of(dir.resolve("responder.pcapng"));
        assertThat(a.findings("psn_gap")).singleElement().satisfies(f -> {
            assertThat(f.side()).isEqualTo(A);
            assertThat(f.number("psn_first")).isEqualTo(step(0) + 1);
            assertThat(f.number("psn_last")).isEqualTo(step(0) + 1);
            assertThat(f.text()).contains("1 lost before the capture point and resent");
        });
        assertThat(a.findings("duplicate")).extracting(f -> f.number("psn_first"))
                .containsExactly((long) step(4), (long) step(4) + 1);
        assertThat(a.findings("duplicate")).allSatisfy(f -> assertThat(f.text()).contains("same IP identification"));
        theRequesterSideFindings(a);
        // The responder's port saw both answers to the atomic: the second replayed from its resources.
        assertThat(a.findings("atomic_replay")).singleElement().satisfies(f ->
                assertThat(f.text()).contains("same original value 0x" + Long.toHexString(ScriptedFaults.FETCH_ADD_START)));
        assertThat(script.fetchAddOriginal).isEqualTo(ScriptedFaults.FETCH_ADD_START);
    }

    /** What every capture point shows of the requester: four resends and why, the RNR run, the fatal NAK. */
    private static void theRequesterSideFindings(AnalysisJson a) {
        List<AnalysisJson.Found> resent = a.findings("resent");
        assertThat(resent).extracting(AnalysisJson.Found::side).containsOnly(A);
        assertThat(resent).extracting(f -> f.number("psn_first") + " " + f.cause()).containsExactly(
                (step(0) + 1) + " sequence_nak", (step(1) + 1) + " implied_nak", step(2) + " ack_timeout",
                step(3) + " rnr_nak");
        assertThat(resent.get(0).number("psn_last")).isEqualTo(step(0) + 2);
        assertThat(a.findings("sequence_nak")).singleElement()
                .satisfies(f -> assertThat(f.number("psn_first")).isEqualTo(step(0) + 1));
        AnalysisJson.Found rnr = a.findings("rnr_nak").getFirst();
        assertThat(a.findings("rnr_nak")).hasSize(1);
        assertThat(rnr.number("psn_first")).isEqualTo(step(3));
        // The responder NAKs every try in the 2 ms before its receive is posted; the resends are one run of rounds.
        assertThat(rnr.number("count")).isGreaterThan(1).isEqualTo(resent.get(3).number("count"));
        assertThat(a.findings("fatal_nak")).singleElement().satisfies(f -> {
            assertThat(f.number("psn_first")).isEqualTo(step(5));
            assertThat(f.text()).startsWith("NAK remote access error");
        });
        assertThat(a.findings("unacknowledged")).isEmpty();
        Map<String, Object> requester = AnalysisJson.sides(a.connections().getFirst()).getFirst();
        assertThat(requester.get("address")).isEqualTo(A);
        assertThat(AnalysisJson.number(AnalysisJson.object(requester, "messages_by_operation"), "RDMA_WRITE")).isEqualTo(2);
        assertThat(AnalysisJson.number(requester, "messages")).isEqualTo(6);
    }
}
