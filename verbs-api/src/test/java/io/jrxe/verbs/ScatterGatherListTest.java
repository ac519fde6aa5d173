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

    @Test
    void everyEntryKeepsItsAddressLengthAndKeyWhetherFirstOrLaterAndThroughACopy() {
        ScatterGatherList sgl = new ScatterGatherList(4);
        assertThat(sgl.capacity()).isEqualTo(4);
        for (int i = 0; i < 4; i++) {
            sgl.add(0xF000_0000_0000L + i, -1 - i, 0x8000_0000 | i); // lengths and keys with the top bit set
        }
        ScatterGatherList copy = new ScatterGatherList(0);
        assertThat(copy.capacity()).isEqualTo(1);
        copy.copyFrom(sgl);
        for (ScatterGatherList l : new ScatterGatherList[] {sgl, copy}) {
            assertThat(l.count()).isEqualTo(4);
            for (int i = 0; i < 4; i++) {
                assertThat(l.addr(i)).isEqualTo(0xF000_0000_0000L + i);
                assertThat(l.length(i)).isEqualTo(0xFFFF_FFFFL - i);
                assertThat(l.lkey(i)).isEqualTo(0x8000_0000 | i);
            }
        }
        copy.clear();
        copy.add(5, 6, 7);
        assertThat(copy.count()).isEqualTo(1);
        assertThat(copy.totalLength()).isEqualTo(6);
    }
}
