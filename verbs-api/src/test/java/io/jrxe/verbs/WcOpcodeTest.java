package io.jrxe.verbs;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A completion opcode and its libibverbs value map to each other, and a value that names none is refused. */
class WcOpcodeTest {
    @ParameterizedTest
    @EnumSource(WcOpcode.class)
    void everyOpcodeIsFoundByItsValue(WcOpcode op) {
        assertThat(WcOpcode.of(op.verbsValue())).isSameAs(op);
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 7, 11, 127, 130, 255, 256, Integer.MAX_VALUE, Integer.MIN_VALUE})
    void aValueThatNamesNoOpcodeIsRefused(int value) {
        assertThatThrownBy(() -> WcOpcode.of(value)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown completion opcode " + value);
    }

    @Test
    void theReceiveOpcodesKeepLibibverbsValues() {
        assertThat(WcOpcode.of(128)).isEqualTo(WcOpcode.RECV);
        assertThat(WcOpcode.of(129)).isEqualTo(WcOpcode.RECV_RDMA_WITH_IMM);
    }
}
