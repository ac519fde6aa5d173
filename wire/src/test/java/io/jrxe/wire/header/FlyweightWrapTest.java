package io.jrxe.wire.header;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** What wrap promises: it keeps the buffer and offset, refuses little-endian buffers, and can be reused. */
class FlyweightWrapTest {
    @Test
    void wrapKeepsBufferAndOffsetAndReturnsTheFlyweight() {
        ByteBuffer buffer = ByteBuffer.allocate(64);
        BthFlyweight bth = new BthFlyweight();

        assertThat(bth.wrap(buffer, 17)).isSameAs(bth);
        assertThat(bth.buffer()).isSameAs(buffer);
        assertThat(bth.offset()).isEqualTo(17);
    }

    @Test
    void littleEndianBuffersAreRefused() {
        ByteBuffer buffer = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);

        assertThatThrownBy(() -> new RethFlyweight().wrap(buffer, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("big-endian");
    }

    @Test
    void rewrappingMovesTheViewToTheNextPacket() {
        ByteBuffer first = ByteBuffer.allocate(12);
        ByteBuffer second = ByteBuffer.allocate(20);
        BthFlyweight bth = new BthFlyweight();
        bth.wrap(first, 0).psn(1);
        bth.wrap(second, 8).psn(2);

        assertThat(bth.wrap(first, 0).psn()).isEqualTo(1);
        assertThat(bth.wrap(second, 8).psn()).isEqualTo(2);
        assertThat(second.get(19)).isEqualTo((byte) 2);
    }

    @Test
    void aHeaderThatDoesNotFitTheBufferIsNotReadPastItsLimit() {
        ByteBuffer buffer = ByteBuffer.allocate(20).limit(15);
        RethFlyweight reth = new RethFlyweight().wrap(buffer, 0);

        assertThatThrownBy(reth::dmaLength).isInstanceOf(IndexOutOfBoundsException.class);
    }
}
