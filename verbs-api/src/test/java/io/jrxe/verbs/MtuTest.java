package io.jrxe.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The path MTU enum carries libibverbs' enum ibv_mtu values: IBV_MTU_256 = 1 ... IBV_MTU_4096 = 5. */
class MtuTest {
    @ParameterizedTest(name = "IBV_MTU_{1} = {0}")
    @CsvSource({"1, 256, MTU_256", "2, 512, MTU_512", "3, 1024, MTU_1024", "4, 2048, MTU_2048", "5, 4096, MTU_4096"})
    void valuesMatchIbvMtu(int verbsValue, int bytes, Mtu mtu) {
        assertThat(mtu.verbsValue()).isEqualTo(verbsValue);
        assertThat(mtu.bytes()).isEqualTo(bytes);
        assertThat(Mtu.ofVerbsValue(verbsValue)).isSameAs(mtu);
        assertThat(Mtu.ofBytes(bytes)).isSameAs(mtu);
    }

    @Test
    void thereAreExactlyFive() {
        assertThat(Mtu.values()).hasSize(5);
        assertThat(Mtu.RXE_HEADROOM).isEqualTo(80);
    }

    @Test
    void otherSizesAreNoPathMtu() {
        assertThatThrownBy(() -> Mtu.ofBytes(1500)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("path MTU must be 256, 512, 1024, 2048 or 4096 bytes, not 1500");
        assertThatThrownBy(() -> Mtu.ofVerbsValue(6)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("out of range 1..5");
    }
}
