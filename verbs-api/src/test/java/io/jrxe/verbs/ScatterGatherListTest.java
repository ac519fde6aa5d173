package io.jrxe.verbs;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ScatterGatherListTest {
    @Test
    void aListFilledBeyondItsCapacityGrowsInsteadOfThrowing() {
        ScatterGatherList sgl = new ScatterGatherList(1);
        sgl.add(0x1000, 10, 7);
        sgl.add(0x2000, 20, 8);
        sgl.add(0x3000, 30, 9);
        assertThat(sgl.count()).isEqualTo(3);
        assertThat(sgl.totalLength()).isEqualTo(60);
        assertThat(sgl.addr(2)).isEqualTo(0x3000);
        ScatterGatherList copy = new ScatterGatherList(1);
        copy.copyFrom(sgl);
        assertThat(copy.count()).isEqualTo(3);
        assertThat(copy.lkey(2)).isEqualTo(9);
    }
}
