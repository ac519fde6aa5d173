package io.jrxe.wire.port.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.assertj.core.api.Assertions.assertThat;

class TransmitStagingTest {
    /** Counts the buffers the staging asks for. */
    private static final class CountingAllocator extends AbstractByteBufAllocator {
        int directBuffers;

        @Override
        protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
            return Unpooled.buffer(initialCapacity, maxCapacity);
        }

        @Override
        protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
            directBuffers++;
            return Unpooled.directBuffer(initialCapacity, maxCapacity);
        }

        @Override
        public boolean isDirectBufferPooled() {
            return false;
        }
    }

    private static ByteBuffer packet(int length, int fill) {
        ByteBuffer b = ByteBuffer.allocate(length + 8);
        for (int i = 0; i < b.capacity(); i++) {
            b.put(i, (byte) (i < 4 || i >= 4 + length ? 0x55 : fill));
        }
        return b;
    }

    private static ByteBuf batch(TransmitStaging staging, int maxBytes, int packets, int length, int fill) {
        staging.start(maxBytes);
        for (int i = 0; i < packets; i++) {
            staging.append(packet(length, fill), 4, length);
        }
        return staging.take();
    }

    @Test
    void eachBatchIsItsOwnBytesAndTheNextDoesNotWriteOverIt() {
        TransmitStaging staging = new TransmitStaging(new CountingAllocator());
        ByteBuf first = batch(staging, 65_000, 3, 1082, 0x11);
        ByteBuf second = batch(staging, 65_000, 1, 1098, 0x22);

        assertThat(first.readableBytes()).isEqualTo(3 * 1082);
        assertThat(second.readableBytes()).isEqualTo(1098);
        for (int i = 0; i < first.readableBytes(); i++) {
            assertThat(first.getByte(i)).as("byte %d of the first batch", i).isEqualTo((byte) 0x11);
        }
        for (int i = 0; i < second.readableBytes(); i++) {
            assertThat(second.getByte(i)).as("byte %d of the second batch", i).isEqualTo((byte) 0x22);
        }
        first.release();
        second.release();
        staging.release();
    }

    @Test
    void batchesShareOneBufferUntilItIsFullAndATakenBatchOutlivesIt() {
        CountingAllocator alloc = new CountingAllocator();
        TransmitStaging staging = new TransmitStaging(alloc);
        int batches = TransmitStaging.CAPACITY / 65_000;
        ByteBuf last = null;
        for (int i = 0; i < batches; i++) {
            ByteBuf b = batch(staging, 65_000, 60, 1082, i + 1);
            if (last != null) {
                last.release(); // as the socket does once it sent it
            }
            last = b;
        }
        assertThat(alloc.directBuffers).as("%d full batches from one buffer", batches).isEqualTo(1);

        ByteBuf next = batch(staging, 65_000, 1, 1082, 0x77);
        assertThat(alloc.directBuffers).as("a batch that may not fit in what is left starts a new buffer").isEqualTo(2);
        assertThat(last.refCnt()).as("the batch not yet sent keeps the full buffer").isPositive();
        assertThat(last.getByte(0)).isEqualTo((byte) batches);
        last.release();
        next.release();
        staging.release();
    }
}
