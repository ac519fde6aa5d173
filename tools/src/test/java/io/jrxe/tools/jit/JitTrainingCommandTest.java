package io.jrxe.tools.jit;

import io.jrxe.tools.common.InProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The workload the launcher records its ahead-of-time cache from: each bandwidth test, both sides in one process. */
class JitTrainingCommandTest {
    @Test
    void everyWorkloadRunsWithBothSidesInThisProcessAndPrintsOnlyProgress() {
        InProcess r = InProcess.run("jit-training", "--seconds", "3", "--addr-a", "127.0.97.11", "--addr-b", "127.0.97.12");
        assertThat(r.status()).as("%s", r).isZero();
        assertThat(r.out()).as("the benchmarks' own output is not printed").isEmpty();
        assertThat(r.err().lines().filter(l -> l.contains(" done in ")))
                .as("%s", r)
                .hasSize(2)
                .anySatisfy(l -> assertThat(l).startsWith("jit-training: send-bw -s 64 done in"))
                .anySatisfy(l -> assertThat(l).startsWith("jit-training: write-bw -s 65536 --if-mtu 4200 done in"));
    }

    @Test
    void oneAddressForBothSidesIsRefusedNamingTheOptions() {
        InProcess r = InProcess.run("jit-training", "--addr-a", "127.0.97.11", "--addr-b", "127.0.97.11");
        assertThat(r.status()).as("%s", r).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).as("%s", r).contains("--addr-a and --addr-b").contains("127.0.97.11").doesNotContain("jit-training: send-bw");
    }

    @Test
    void aRunTooShortForAMeasuredWindowIsRefused() {
        InProcess r = InProcess.run("jit-training", "--seconds", "2");
        assertThat(r.status()).as("%s", r).isEqualTo(1);
        assertThat(r.err()).as("%s", r).contains("--seconds 2: from 3 to 60");
    }

    @Test
    void aBadAddressIsRefusedNamingItsOption() { // a bracket left open: no name lookup is tried
        InProcess r = InProcess.run("jit-training", "--addr-b", "[nonsense");
        assertThat(r.status()).as("%s", r).isEqualTo(1);
        assertThat(r.err()).as("%s", r).contains("--addr-b: not an IP address: [nonsense");
    }
}
