package io.jrxe.tools.soak;

import io.jrxe.wire.opcode.Opcode;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The soak engine: it passes on a faulty network, replays a seed exactly, and its checker can fail. */
class SoakRunTest {
    @Test
    void tenThousandMixedOperationsUnderLossReorderingAndDuplicationAllCheckOut() throws Exception {
        SoakConfig config = SoakConfig.defaults(1);
        assertThat(config.ops()).isEqualTo(10_000);
        assertThat(config.loss()).isEqualTo(0.05);
        StringWriter problems = new StringWriter();
        SoakRun run = new SoakRun(config).diagnostics(new PrintWriter(problems, true));
        long start = System.nanoTime();
        SoakResult result = run.run();
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("soak of 10,000 ops: " + result.summary() + " in " + millis + " ms real, "
                + SoakRun.seconds(result.virtualNanos()) + " s virtual; " + run.network());

        assertThat(problems.toString()).isEmpty();
        assertThat(result.passed()).isTrue();
        assertThat(result.ok()).isEqualTo(10_000);
        assertThat(result.mismatches()).isZero();
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.stoppedBecause()).isNull();
        // The faults really happened, and the NICs really had to recover from them.
        assertThat(run.network().lost()).isGreaterThan(100);
        assertThat(run.network().reordered()).isGreaterThan(100);
        assertThat(run.network().duplicated()).isGreaterThan(50);
        assertThat(run.network().corrupted()).isGreaterThan(10);
        assertThat(result.retransmits()).isGreaterThan(100);
    }

    @Test
    void theSameSeedReplaysTheSameTraceAndADifferentSeedDoesNot() throws Exception {
        SoakConfig config = SoakConfig.defaults(42).withOps(2_000);
        SoakRun first = new SoakRun(config);
        SoakResult one = first.run();
        SoakRun second = new SoakRun(config);
        SoakResult two = second.run();
        SoakRun other = new SoakRun(SoakConfig.defaults(43).withOps(2_000));
        SoakResult three = other.run();

        assertThat(one.passed()).isTrue();
        assertThat(two.summary()).isEqualTo(one.summary());
        assertThat(second.network().fingerprint()).isEqualTo(first.network().fingerprint());
        assertThat(two.fingerprint()).isEqualTo(one.fingerprint());
        assertThat(two.virtualNanos()).isEqualTo(one.virtualNanos());
        assertThat(second.network().sent()).isEqualTo(first.network().sent());

        assertThat(three.passed()).isTrue();
        assertThat(other.network().fingerprint()).isNotEqualTo(first.network().fingerprint());
    }

    @Test
    void oneBitFlippedBehindTheSoaksBackIsExactlyOneMismatch() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(SoakConfig.defaults(7).withOps(1_000))
                .diagnostics(new PrintWriter(problems, true))
                .tamperWithResultOf(500)
                .run();

        assertThat(result.mismatches()).isEqualTo(1);
        assertThat(result.ok()).isEqualTo(999);
        assertThat(result.lostCompletions()).isZero();
        assertThat(result.passed()).isFalse();
        assertThat(problems.toString().lines()).hasSize(1).first().asString()
                .startsWith("soak: op ").contains("is 0x").contains(", expected 0x");
    }

    @Test
    void theMixHasEveryRcOperationAndSizesFromZeroToSeveralMtus() throws Exception {
        StringWriter trace = new StringWriter();
        SoakResult result = new SoakRun(SoakConfig.defaults(3).withOps(400).withFaults(0, 0, 0, 0))
                .trace(new PrintWriter(trace, true))
                .run();
        assertThat(result.passed()).isTrue();
        assertThat(result.retransmits()).isZero();

        // The trace names each packet's opcode as the dissector does ("RC SEND_FIRST").
        Pattern sent = Pattern.compile("PACKET_SENT +psn=\\S+ opcode=(.+?) wr=\\d+ value=(\\d+)");
        java.util.Map<String, Opcode> byName = new java.util.HashMap<>();
        for (Opcode op : Opcode.values()) {
            byName.put(op.displayName(), op);
        }
        Set<Opcode> opcodes = new HashSet<>();
        boolean emptyPayload = false;
        Matcher m = sent.matcher(trace.toString());
        while (m.find()) {
            Opcode op = byName.get(m.group(1));
            assertThat(op).as("a packet opcode named in the trace: " + m.group(1)).isNotNull();
            opcodes.add(op);
            emptyPayload |= op.hasPayload() && Integer.parseInt(m.group(2)) == 0;
        }
        assertThat(opcodes).contains(Opcode.RC_SEND_FIRST, Opcode.RC_SEND_MIDDLE, Opcode.RC_SEND_LAST,
                Opcode.RC_SEND_ONLY, Opcode.RC_SEND_LAST_WITH_IMMEDIATE, Opcode.RC_SEND_ONLY_WITH_IMMEDIATE,
                Opcode.RC_RDMA_WRITE_FIRST, Opcode.RC_RDMA_WRITE_MIDDLE, Opcode.RC_RDMA_WRITE_LAST,
                Opcode.RC_RDMA_WRITE_ONLY, Opcode.RC_RDMA_WRITE_LAST_WITH_IMMEDIATE,
                Opcode.RC_RDMA_WRITE_ONLY_WITH_IMMEDIATE, Opcode.RC_RDMA_READ_REQUEST, Opcode.RC_COMPARE_SWAP,
                Opcode.RC_FETCH_ADD);
        assertThat(emptyPayload).as("some message of 0 bytes").isTrue();
    }

    @Test
    void withFlushAndAtomicWriteTheMixHasThemTooAndAnOldSeedStillReplaysWithoutThem() throws Exception {
        SoakConfig config = SoakConfig.defaults(3).withOps(600);
        StringWriter trace = new StringWriter();
        SoakRun extended = new SoakRun(config.with(List.of("flush", "atomic-write"))).trace(new PrintWriter(trace, true));
        SoakResult result = extended.run();
        assertThat(result.passed()).as(result.summary()).isTrue();
        assertThat(result.ok()).isEqualTo(600);
        assertThat(trace.toString()).contains("opcode=RC FLUSH ").contains("opcode=RC ATOMIC_WRITE ");

        SoakRun plain = new SoakRun(config);
        SoakRun plainAgain = new SoakRun(config.with(List.of()));
        plain.run();
        plainAgain.run();
        assertThat(plainAgain.network().fingerprint()).isEqualTo(plain.network().fingerprint())
                .isNotEqualTo(extended.network().fingerprint());
    }

    @Test
    void aRunThatCannotFinishStopsAtItsVirtualTimeLimitAndCountsWhatIsLost() throws Exception {
        StringWriter problems = new StringWriter();
        SoakResult result = new SoakRun(SoakConfig.defaults(5).withOps(1_000).withFaults(0.5, 0, 0, 0))
                .diagnostics(new PrintWriter(problems, true))
                .virtualTimeLimit(3_000_000)
                .run();

        assertThat(result.stoppedBecause()).contains("virtual time passed the limit");
        assertThat(result.lostCompletions()).isPositive();
        assertThat(result.passed()).isFalse();
        assertThat(result.ok()).isLessThan(1_000);
        assertThat(problems.toString()).contains("soak: stopped: virtual time passed the limit of 0.003 s");
    }
}
