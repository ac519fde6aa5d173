package io.jrxe.tools.udpsoak;

/**
 * Where everything is in a side's memory, one MR over all of it: per QP a region the peer WRITEs, READs and
 * updates atomically (its last {@link #COUNTERS} 8-byte words are the atomics' targets), then per QP the staging
 * slots its own requests gather from and scatter into, then per QP the receive buffers of the peer's SENDs. Both
 * sides use the same layout, and fill their regions with {@link #initial}, so each knows what the other's holds.
 */
final class UdpSoakLayout {
    static final int REGION = 32 * 1024;
    static final int COUNTERS = 32;
    /** The bytes of a region that WRITEs and READs use; atomics use the rest. */
    static final int DATA = REGION - COUNTERS * 8;
    /** Outstanding requests per QP. */
    static final int WINDOW = 8;
    static final int SLOT = 8 * 1024;
    static final int MAX_TRANSFER = SLOT;
    /** A SEND carries its sequence number and length, then its payload. */
    static final int SEND_HEADER = 12;
    static final int MAX_SEND = 4 * 1024;
    static final int RECEIVES = 2 * WINDOW;
    static final int RECEIVE_SLOT = SEND_HEADER + MAX_SEND;

    final int qps;

    UdpSoakLayout(int qps) {
        this.qps = qps;
    }

    long region(int qp) {
        return (long) qp * REGION;
    }

    long slot(int qp, int slot) {
        return (long) qps * REGION + ((long) qp * WINDOW + slot) * SLOT;
    }

    long receive(int qp, int slot) {
        return (long) qps * REGION + (long) qps * WINDOW * SLOT + ((long) qp * RECEIVES + slot) * RECEIVE_SLOT;
    }

    long size() {
        return receive(qps, 0);
    }

    /** What byte {@code offset} of QP {@code qp}'s region holds before any operation. */
    static byte initial(int qp, int offset) {
        return (byte) (offset * 131 + (offset >>> 9) + qp * 7);
    }

    /** Byte {@code k} of the payload of SEND number {@code seq} on QP {@code qp}. */
    static byte payload(int qp, long seq, int k) {
        return (byte) (seq * 37 + k * 13 + qp + (k >>> 8));
    }
}
