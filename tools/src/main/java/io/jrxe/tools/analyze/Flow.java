package io.jrxe.tools.analyze;

import java.util.Arrays;

/**
 * One-way traffic to one QP: the packets from one address to another for one destination QP (and, for UD,
 * from one source QP). RC and UC packets name only their destination QP, so the sender's own QP number is
 * learnt by pairing the flow with the one that goes back ({@link FlowTable}).
 */
final class Flow {
    final byte[] src;
    final byte[] dst;
    final int qpn;
    /** The DETH's source QP for UD, else -1. */
    final int srcQpn;
    final int udpPort;
    final long hash;
    /** The next flow whose key has the same hash. */
    Flow sameHash;
    Connection connection;
    /** The side of {@link #connection} that sends this flow's packets. */
    int side;
    Flow partner;
    /** For a capture of several interfaces (jrxe's): the interface where this flow's packets arrive, once seen. */
    int arrivalIface = -1;
    /** The send time of the latest-sent packet of this flow that arrived. */
    long lastArrivedSentAt = Long.MIN_VALUE;

    Flow(RocePacket p, int srcQpn, long hash) {
        this.src = Arrays.copyOf(p.src, p.addressLength());
        this.dst = Arrays.copyOf(p.dst, p.addressLength());
        this.qpn = p.destQpn;
        this.srcQpn = srcQpn;
        this.udpPort = p.srcPort;
        this.hash = hash;
    }

    boolean matches(RocePacket p, int packetSrcQpn) {
        int n = p.addressLength();
        return qpn == p.destQpn && srcQpn == packetSrcQpn && src.length == n
                && Arrays.equals(src, 0, n, p.src, 0, n) && Arrays.equals(dst, 0, n, p.dst, 0, n);
    }
}
