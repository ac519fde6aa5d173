package io.jrxe.tools.compare;

import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** What counts as a difference in behaviour, and what is only shown. */
class SideBySideTest {
    private static final Step PLAIN = Step.of("write", "RDMA_WRITE", e -> "-");
    private static final Step TIMED = Step.timed("bandwidth", "bandwidth", e -> "-");
    private static final Completion WRITE_OK = new Completion(WcStatus.SUCCESS, WcOpcode.RDMA_WRITE, 64, null);

    private static Observation seen(Step step, List<Completion> onA, Map<String, Long> counters, List<String> packets,
                                    String speed) {
        return new Observation(step, step.id(), onA, List.of(), "B+0: 64 x 0x5a", "A RTS, B RTS", counters, 1, 2, speed,
                null, packets);
    }

    private static String[] run(Observation left, Observation right, Set<String> leftHas, Set<String> rightHas,
                                List<String> differences) {
        StringWriter text = new StringWriter();
        SideBySide s = new SideBySide(new PrintWriter(text), leftHas, rightHas);
        s.step(1, left, right, "jrxe", "rxe0");
        differences.addAll(s.differences());
        return text.toString().lines().toArray(String[]::new);
    }

    @Test
    void theSameBehaviourMarksNothing() {
        List<String> packets = List.of("A>B RDMA_WRITE_ONLY psn+0 A len=64", "B>A ACKNOWLEDGE psn+0 ACK credits=invalid msn=1");
        Observation o = seen(PLAIN, List.of(WRITE_OK), Map.of("sent_pkts", 2L), packets, null);
        List<String> differences = new java.util.ArrayList<>();
        String[] lines = run(o, o, Set.of("sent_pkts"), Set.of("sent_pkts"), differences);
        assertThat(differences).isEmpty();
        assertThat(lines).noneMatch(l -> l.startsWith("!") || l.startsWith("~"));
        assertThat(lines).anyMatch(l -> l.matches("  on A +RDMA_WRITE SUCCESS len=64 +RDMA_WRITE SUCCESS len=64"));
    }

    @Test
    void aDifferentCompletionPacketOrCounterIsMarkedAndNamed() {
        Observation left = seen(PLAIN, List.of(WRITE_OK), Map.of("sent_pkts", 2L),
                List.of("A>B RDMA_WRITE_ONLY psn+0 A len=64", "B>A ACKNOWLEDGE psn+0 ACK credits=invalid msn=1"), null);
        Observation right = seen(PLAIN, List.of(new Completion(WcStatus.REM_ACCESS_ERR, null, 0, null)), Map.of("sent_pkts", 2L),
                List.of("A>B RDMA_WRITE_ONLY psn+0 A len=64", "B>A ACKNOWLEDGE psn+0 NAK remote access error msn=0"), null);
        List<String> differences = new java.util.ArrayList<>();
        String[] lines = run(left, right, Set.of("sent_pkts"), Set.of("sent_pkts"), differences);
        assertThat(differences).containsExactly("write: on A", "write: packets");
        assertThat(lines).anyMatch(l -> l.startsWith("! on A ") && l.endsWith("REM_ACCESS_ERR"));
        assertThat(lines).anyMatch(l -> l.startsWith("!  ") && l.endsWith("NAK remote access error msn=0"));
        assertThat(lines).anyMatch(l -> l.startsWith("  counters ") && l.endsWith("sent_pkts +2"));
    }

    @Test
    void countersOfHowADeviceScheduledItsWorkAreOnlyShown() {
        for (String name : List.of("ack_deferred", "jrxe_ack_timer_held_up")) {
            Observation left = seen(PLAIN, List.of(WRITE_OK), Map.of("sent_pkts", 2L), List.of(), null);
            Observation right = seen(PLAIN, List.of(WRITE_OK), Map.of("sent_pkts", 2L, name, 1L), List.of(), null);
            List<String> differences = new java.util.ArrayList<>();
            Set<String> both = Set.of("sent_pkts", name);
            String[] lines = run(left, right, both, both, differences);
            assertThat(differences).as(name).isEmpty();
            assertThat(lines).as(name).anyMatch(l -> l.matches("~ counters +" + name + " \\+0 +" + name + " \\+1"));
        }
    }

    @Test
    void aCounterOneSideDoesNotHaveAndATimedStepsPacketsAreOnlyShown() {
        Observation left = seen(TIMED, List.of(WRITE_OK, WRITE_OK, WRITE_OK), Map.of("jrxe_drop_unknown_qpn", 1L, "sent_pkts", 6L),
                List.of("A>B RDMA_WRITE_ONLY psn+0 A len=64", "B>A ACKNOWLEDGE psn+0 ACK credits=invalid msn=1",
                        "A>B RDMA_WRITE_ONLY psn+1 A len=64", "A>B RDMA_WRITE_ONLY psn+2 A len=64",
                        "B>A ACKNOWLEDGE psn+2 ACK credits=invalid msn=3"), "500.0 MiB/s");
        Observation right = seen(TIMED, List.of(WRITE_OK, WRITE_OK, WRITE_OK), Map.of("sent_pkts", 7L),
                List.of("A>B RDMA_WRITE_ONLY psn+0 A len=64"), "900.0 MiB/s");
        List<String> differences = new java.util.ArrayList<>();
        String[] lines = run(left, right, Set.of("jrxe_drop_unknown_qpn", "sent_pkts"), Set.of("sent_pkts"), differences);
        assertThat(differences).isEmpty();
        assertThat(lines).anyMatch(l -> l.matches("  on A +3 x RDMA_WRITE SUCCESS len=64 +3 x RDMA_WRITE SUCCESS len=64"));
        assertThat(lines).anyMatch(l -> l.matches("~ counters +jrxe_drop_unknown_qpn \\+1 +\\(no jrxe_drop_unknown_qpn\\)"));
        assertThat(lines).anyMatch(l -> l.matches("~ packets +3 x A>B RDMA_WRITE_ONLY +1 x A>B RDMA_WRITE_ONLY"));
        assertThat(lines).anyMatch(l -> l.matches("~ +2 x B>A ACKNOWLEDGE +-"));
        assertThat(lines).anyMatch(l -> l.matches("~ speed +500.0 MiB/s +900.0 MiB/s"));
    }

    @Test
    void packetsOneSideCouldNotSeeAreShownNotCompared() {
        Observation left = seen(PLAIN, List.of(WRITE_OK), Map.of(), List.of("A>B RDMA_WRITE_ONLY psn+0 A len=64"), null);
        Observation right = seen(PLAIN, List.of(WRITE_OK), Map.of(), null, null);
        List<String> differences = new java.util.ArrayList<>();
        String[] lines = run(left, right, Set.of(), Set.of(), differences);
        assertThat(differences).isEmpty();
        assertThat(lines).anyMatch(l -> l.matches("~ packets +A>B RDMA_WRITE_ONLY psn\\+0 A len=64 +\\(not seen\\)"));
        assertThat(lines).anyMatch(l -> l.matches("  counters +none moved +none moved"));
    }
}
