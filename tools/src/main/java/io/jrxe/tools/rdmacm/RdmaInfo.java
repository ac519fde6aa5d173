package io.jrxe.tools.rdmacm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * rping's buffer descriptor (struct rping_rdma_info), the only thing its SENDs carry: where a buffer is, its
 * R_Key and its length, all big-endian, 16 bytes. The client sends one for the buffer the server is to READ
 * from, then one for the buffer it is to WRITE into.
 *
 * @param address the buffer's virtual address (be64 buf)
 * @param rkey    its R_Key (be32 rkey)
 * @param size    its length in bytes (be32 size)
 */
record RdmaInfo(long address, int rkey, int size) {
    /** The descriptor's length on the wire. */
    static final int BYTES = 16;

    private static final ValueLayout.OfLong BE64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt BE32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    /** Writes this descriptor at the start of {@code to}. */
    void write(MemorySegment to) {
        to.set(BE64, 0, address);
        to.set(BE32, 8, rkey);
        to.set(BE32, 12, size);
    }

    /** The descriptor at the start of {@code from}. */
    static RdmaInfo read(MemorySegment from) {
        return new RdmaInfo(from.get(BE64, 0), from.get(BE32, 8), from.get(BE32, 12));
    }
}
