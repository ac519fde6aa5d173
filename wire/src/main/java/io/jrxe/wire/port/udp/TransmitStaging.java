package io.jrxe.wire.port.udp;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.nio.ByteBuffer;

/**
 * Where the NIC thread lays out the datagrams it sends: a large direct buffer written front to back, each batch
 * handed to its socket as a retained slice. A buffer per batch would take a run of up to 64 KiB from the pool's
 * arena every time (larger than its thread caches keep), and a WRITE stream starts a batch at every message,
 * since a message's first packet carries a RETH and so is longer than the GSO segments that follow. A full
 * buffer is let go; the slices still queued on sockets keep it until they are sent. NIC thread only.
 */
final class TransmitStaging {
    /** One buffer holds at least this many bytes: sixteen full GSO batches between two allocations. */
    static final int CAPACITY = 1 << 20;
    private final ByteBufAllocator alloc;
    private ByteBuf buf;
    private int batchStart;

    TransmitStaging(ByteBufAllocator alloc) {
        this.alloc = alloc;
    }

    /** Starts a batch that may grow to {@code maxBytes}. */
    void start(int maxBytes) {
        if (buf == null || buf.writableBytes() < maxBytes) {
            release();
            int capacity = Math.max(CAPACITY, maxBytes);
            buf = alloc.directBuffer(capacity, capacity);
        }
        batchStart = buf.writerIndex();
    }

    /** Appends packet[offset, offset+length) to the batch, without a duplicate() of the packet buffer. */
    void append(ByteBuffer packet, int offset, int length) {
        int position = packet.position();
        int limit = packet.limit();
        try {
            packet.limit(offset + length).position(offset);
            buf.writeBytes(packet);
        } finally {
            packet.limit(limit).position(position);
        }
    }

    /** The batch written since {@link #start}: the socket's write releases it. */
    ByteBuf take() {
        return buf.retainedSlice(batchStart, buf.writerIndex() - batchStart);
    }

    /** Lets go of the buffer (the port closes, or it is full); batches taken keep it until they are sent. */
    void release() {
        if (buf != null) {
            buf.release();
            buf = null;
        }
    }
}
