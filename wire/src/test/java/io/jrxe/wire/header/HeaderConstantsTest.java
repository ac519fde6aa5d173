package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The public offset constants other code (the ICRC, the dissector) builds on, against the spec. */
class HeaderConstantsTest {
    @Test
    void bthOffsets() {
        assertThat(new int[] {BthFlyweight.LENGTH, BthFlyweight.OPCODE_OFFSET, BthFlyweight.FLAGS_OFFSET,
                BthFlyweight.PKEY_OFFSET, BthFlyweight.ECN_OFFSET, BthFlyweight.DEST_QPN_OFFSET,
                BthFlyweight.ACK_REQ_OFFSET, BthFlyweight.PSN_OFFSET, BthFlyweight.DEFAULT_PKEY})
                .containsExactly(12, 0, 1, 2, 4, 5, 8, 9, 0xFFFF);
    }

    @Test
    void extendedHeaderOffsets() {
        assertThat(new int[] {RethFlyweight.LENGTH, RethFlyweight.VA_OFFSET, RethFlyweight.RKEY_OFFSET,
                RethFlyweight.DMA_LENGTH_OFFSET}).containsExactly(16, 0, 8, 12);
        assertThat(new int[] {AethFlyweight.LENGTH, AethFlyweight.SYNDROME_OFFSET, AethFlyweight.MSN_OFFSET})
                .containsExactly(4, 0, 1);
        assertThat(new int[] {AtomicEthFlyweight.LENGTH, AtomicEthFlyweight.VA_OFFSET, AtomicEthFlyweight.RKEY_OFFSET,
                AtomicEthFlyweight.SWAP_ADD_OFFSET, AtomicEthFlyweight.COMPARE_OFFSET}).containsExactly(28, 0, 8, 12, 20);
        assertThat(new int[] {DethFlyweight.LENGTH, DethFlyweight.QKEY_OFFSET, DethFlyweight.RESERVED_OFFSET,
                DethFlyweight.SRC_QPN_OFFSET}).containsExactly(8, 0, 4, 5);
        assertThat(new int[] {AtomicAckEthFlyweight.LENGTH, ImmDtFlyweight.LENGTH, IethFlyweight.LENGTH,
                FethFlyweight.LENGTH}).containsExactly(8, 4, 4, 4);
    }

    @Test
    void flushConstants() {
        assertThat(new int[] {FethFlyweight.SELECTIVITY_RANGE, FethFlyweight.SELECTIVITY_WHOLE_REGION,
                FethFlyweight.PLACEMENT_GLOBAL_VISIBILITY, FethFlyweight.PLACEMENT_PERSISTENCE})
                .containsExactly(0, 1, 1, 2);
    }
}
