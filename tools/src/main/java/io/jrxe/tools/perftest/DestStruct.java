package io.jrxe.tools.perftest;

import java.nio.ByteBuffer;

/**
 * A {@link PerftestDest} as perftest sends it over an rdma_cm exchange (rdma_write_keys): its C struct
 * pingpong_dest as it lies in memory on x86-64, each integer in network order. perftest up to 26.01 lays it out in
 * {@value #SIZE} bytes: lid, out_reads, qpn, psn, rkey (4 bytes each), 4 bytes of padding, vaddr (8), the GID
 * (16), srqn and gid_index (4 each). The reader takes lid to vaddr and the GID (rdma_read_keys), and posts its
 * receive for exactly this size, so every piece of that exchange fits in it.
 */
final class DestStruct {
    static final int SIZE = 56;
    private static final int VADDR = 24;
    private static final int GID = 32;
    private static final int SRQN = 48;

    private DestStruct() {
    }

    static byte[] encode(PerftestDest d) {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.putInt(0, d.lid()).putInt(4, d.outReads()).putInt(8, d.qpn()).putInt(12, d.psn()).putInt(16, d.rkey());
        b.putLong(VADDR, d.vaddr());
        byte[] gid = d.gid();
        if (gid != null) {
            b.put(GID, gid);
        }
        b.putInt(SRQN, d.srqn());
        return b.array();
    }

    static PerftestDest decode(byte[] message) {
        ByteBuffer b = ByteBuffer.wrap(message);
        byte[] gid = new byte[16];
        b.get(GID, gid);
        return new PerftestDest(b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getLong(VADDR), gid,
                b.getInt(SRQN));
    }
}
