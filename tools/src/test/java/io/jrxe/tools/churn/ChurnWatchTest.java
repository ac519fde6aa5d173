package io.jrxe.tools.churn;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ChurnWatchTest {
    private static final long MIB = 1 << 20;

    private static ProcessSample sample(long cycles, long heapMib, int threads, long files) {
        return new ProcessSample(cycles, cycles / 1000.0, heapMib * MIB, threads, files);
    }

    @Test
    void whatComesAndGoesWithinTheSlackIsFlat() {
        assertThat(ChurnWatch.growth(List.of(sample(1000, 20, 8, 50), sample(5000, 35, 10, 58), sample(10_000, 30, 9, 55))))
                .isEmpty();
    }

    @Test
    void eachFigureThatGrewPastItsSlackIsNamed() {
        assertThat(ChurnWatch.growth(List.of(sample(1000, 20, 8, 50), sample(10_000, 40, 11, 59))))
                .containsExactly("heap 20.0 -> 40.0 MiB", "threads 8 -> 11", "open files 50 -> 59");
    }

    @Test
    void aLargeHeapMayGrowByAQuarter() {
        assertThat(ChurnWatch.growth(List.of(sample(1000, 200, 8, 50), sample(10_000, 249, 8, 50)))).isEmpty();
        assertThat(ChurnWatch.growth(List.of(sample(1000, 200, 8, 50), sample(10_000, 251, 8, 50)))).hasSize(1);
    }

    @Test
    void withoutOpenFilesToCountOnlyHeapAndThreadsAreJudged() {
        assertThat(ChurnWatch.growth(List.of(sample(1000, 20, 8, -1), sample(10_000, 20, 8, -1)))).isEmpty();
    }

    @Test
    void oneCheckpointSaysNothing() {
        assertThat(ChurnWatch.growth(List.of(sample(1000, 20, 8, 50)))).isEmpty();
    }
}
