package io.jrxe.verbs.nativ.codec;

import io.jrxe.verbs.RecvWr;
import io.jrxe.verbs.nativ.abi.IbvRecvWr;
import io.jrxe.verbs.nativ.abi.IbvSge;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.assertj.core.api.Assertions.assertThat;

/** jrxe RecvWr -> ibv_recv_wr bytes -> read back. */
class RecvWrEncoderTest {
    @Test
    void aReceiveNamesItsIdAndItsSges() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment wr = arena.allocate(IbvRecvWr.LAYOUT);
            MemorySegment sges = arena.allocate(IbvSge.LAYOUT, 2);
            RecvWr r = new RecvWr(3);
            r.wrId = 77;
            r.sgl.add(0x7000_0000_0000L, 1024, 0x301);
            r.sgl.add(0x7000_0000_8000L, 0xFFFF_FFFF, 0x302); // a 4 GiB - 1 length stays unsigned
            assertThat(RecvWrEncoder.encode(r, wr, sges)).isNull();
            assertThat(wr.get(JAVA_LONG, IbvRecvWr.WR_ID)).isEqualTo(77);
            assertThat(wr.get(JAVA_INT, IbvRecvWr.NUM_SGE)).isEqualTo(2);
            assertThat(wr.get(ADDRESS, IbvRecvWr.SG_LIST).address()).isEqualTo(sges.address());
            assertThat(wr.get(ADDRESS, IbvRecvWr.NEXT)).isEqualTo(MemorySegment.NULL);
            assertThat(sges.get(JAVA_INT, IbvSge.LKEY)).isEqualTo(0x301);
            assertThat(sges.get(JAVA_LONG, IbvSge.SIZE + IbvSge.ADDR)).isEqualTo(0x7000_0000_8000L);
            assertThat(Integer.toUnsignedLong(sges.get(JAVA_INT, IbvSge.SIZE + IbvSge.LENGTH))).isEqualTo(0xFFFF_FFFFL);
            r.sgl.add(1, 1, 1);
            assertThat(RecvWrEncoder.encode(r, wr, sges)).isEqualTo("3 SGEs exceed the queue's max_recv_sge 2");
        }
    }
}
