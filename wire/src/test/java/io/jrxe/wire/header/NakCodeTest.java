package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** NAK codes (IBTA 9.7.5.1, table 44): 0..4 defined, 5..31 reserved. */
class NakCodeTest {
    @Test
    void theFiveDefinedCodesHaveTheSpecsValues() {
        assertThat(NakCode.PSN_SEQUENCE_ERROR.value()).isZero();
        assertThat(NakCode.INVALID_REQUEST.value()).isEqualTo(1);
        assertThat(NakCode.REMOTE_ACCESS_ERROR.value()).isEqualTo(2);
        assertThat(NakCode.REMOTE_OPERATIONAL_ERROR.value()).isEqualTo(3);
        assertThat(NakCode.INVALID_RD_REQUEST.value()).isEqualTo(4);
        assertThat(NakCode.values()).hasSize(5);
    }

    @Test
    void ofFindsDefinedCodesAndReturnsNullForReservedOnes() {
        for (NakCode code : NakCode.values()) {
            assertThat(NakCode.of(code.value())).isSameAs(code);
        }
        for (int value = 5; value < 32; value++) {
            assertThat(NakCode.of(value)).as("NakCode.of(%d)", value).isNull();
        }
        assertThat(NakCode.of(-1)).isNull();
    }
}
