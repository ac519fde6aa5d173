package io.jrxe.tools.analyze;

import io.jrxe.wire.capture.PcapngAnnotations;
import io.jrxe.wire.psn.Psn;
import io.jrxe.wire.sim.FaultListener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * `jrxe analyze` on {@link RandomFaults}' captures, against the simulated network's record of every packet it lost,
 * copied or held back, and jrxe's own note on every packet it sent again.
 */
class RandomFaultsAnalysisTest {
    private static final int ROUNDS = 60;

    @TempDir
    static Path dir;
    private static RandomFaults run;

    @BeforeAll
    static void run() throws Exception {
        run = RandomFaults.write(dir.resolve("all.pcapng"), dir.resolve("requester.pcapng"), dir.resolve("responder.pcapng"),
                ROUNDS);
    }

    private static List<String> faults(FaultListener.Fault kind) {
        return run.faults.stream().filter(f -> f.kind() == kind)
                .map(f -> f.from() + " " + f.opcode().displayName() + " " + Psn.format(f.psn())).toList();
    }

    private static String described(AnalysisJson.Found f) {
        String text = f.text();
        return f.side() + " " + text.substring(0, text.indexOf(" PSN ")) + " " + Psn.format((int) f.number("psn_first"));
    }

    @Test
    void theNetworkDidEachKindOfHarm() {
        assertThat(faults(FaultListener.Fault.LOST)).hasSizeGreaterThan(10);
        assertThat(faults(FaultListener.Fault.DUPLICATED)).hasSizeGreaterThan(5);
        assertThat(faults(FaultListener.Fault.REORDERED)).hasSizeGreaterThan(5);
    }

    @Test
    void noCapturePointCallsAnythingAnErrorWhenTheNetworkOnlyLosesCopiesAndDelays() {
        for (String capture : List.of("all.pcapng", "requester.pcapng", "responder.pcapng")) {
            AnalysisJson a = AnalysisJson.of(dir.resolve(capture));
            assertThat(AnalysisJson.number(AnalysisJson.object(a.data(), "totals"), "error")).as(capture).isZero();
            assertThat(AnalysisJson.number(AnalysisJson.object(a.data(), "totals"), "warning")).as(capture).isPositive();
            assertThat(a.findings("unacknowledged")).as(capture).isEmpty();
        }
    }

    @Test
    void withEveryArrivalOnRecordTheLossesAndCopiesAreExactlyTheNetworks() {
        AnalysisJson a = AnalysisJson.of(dir.resolve("all.pcapng"));
        assertThat(a.status()).isEqualTo(1);
        assertThat(a.findings("lost")).extracting(RandomFaultsAnalysisTest::described)
                .containsExactlyInAnyOrderElementsOf(faults(FaultListener.Fault.LOST));
        assertThat(a.findings("duplicate")).extracting(RandomFaultsAnalysisTest::described)
                .containsExactlyInAnyOrderElementsOf(faults(FaultListener.Fault.DUPLICATED));
    }

    @Test
    void everyResendAndItsCauseIsTheRequestersOwn() {
        Path capture = dir.resolve("requester.pcapng");
        AnalysisJson a = AnalysisJson.of(capture);
        List<PcapngAnnotations.Annotation> notes = PcapngAnnotations.read(capture, Long.MAX_VALUE);
        long noted = notes.stream().filter(n -> n.comment() != null
                && (n.comment().startsWith("retransmission") || n.comment().startsWith("resend of"))).count();
        List<AnalysisJson.Found> resent = a.findings("resent");
        assertThat(resent).isNotEmpty();
        assertThat(resent.stream().mapToLong(f -> f.number("count")).sum()).isEqualTo(noted);
        assertThat(AnalysisJson.number(AnalysisJson.sides(a.connections().getFirst()).getFirst(), "resent_packets"))
                .isEqualTo(noted);
        ResendNotes.agree(capture, resent);
    }

    @Test
    void atTheRespondersPortEveryGapAndLatePacketIsOneTheNetworkLostOrHeldBack() {
        AnalysisJson a = AnalysisJson.of(dir.resolve("responder.pcapng"));
        Set<Integer> lostOrHeld = new HashSet<>();
        Set<Integer> held = new HashSet<>();
        for (CapturedPair.Fault f : run.faults) {
            if (f.from().equals(CapturedPair.A) && f.opcode().isRequest()) {
                if (f.kind() == FaultListener.Fault.LOST || f.kind() == FaultListener.Fault.REORDERED) {
                    lostOrHeld.add(f.psn());
                }
                if (f.kind() == FaultListener.Fault.REORDERED) {
                    held.add(f.psn());
                }
            }
        }
        List<AnalysisJson.Found> gaps = a.findings("psn_gap");
        assertThat(gaps).isNotEmpty();
        for (AnalysisJson.Found g : gaps) {
            // A gap starts at a packet the network lost or held back; the PSNs after it that a READ's response takes
            // are no packets of their own, so a gap counts at most as many packets as the network harmed in it.
            assertThat(lostOrHeld).as(g.text()).contains((int) g.number("psn_first"));
            long harmed = 0;
            for (int psn = (int) g.number("psn_first"); ; psn = Psn.next(psn)) {
                harmed += lostOrHeld.contains(psn) ? 1 : 0;
                if (psn == (int) g.number("psn_last")) {
                    break;
                }
            }
            assertThat(g.number("count")).as(g.text()).isBetween(1L, harmed);
        }
        assertThat(a.findings("reordered")).allSatisfy(f ->
                assertThat(held).as(f.text()).contains((int) f.number("psn_first")));
        List<String> copiedRequests = run.faults.stream().filter(f -> f.kind() == FaultListener.Fault.DUPLICATED
                && f.from().equals(CapturedPair.A)).map(f -> f.opcode().displayName() + " " + Psn.format(f.psn())).toList();
        assertThat(a.findings("duplicate")).extracting(f -> described(f).substring(CapturedPair.A.length() + 1))
                .containsExactlyInAnyOrderElementsOf(copiedRequests);
    }
}
