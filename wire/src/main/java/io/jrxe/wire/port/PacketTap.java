package io.jrxe.wire.port;

import java.nio.ByteBuffer;

/**
 * Sees every packet a port sends, receives or drops (capture mode, teaching views). Called on
 * the NIC thread with the RoCE bytes (BTH to ICRC) and what the port knows of the headers
 * around them; {@code comment} says why a packet was dropped, or is null. The timestamp is the
 * port's clock: {@link System#nanoTime()} for real sockets, virtual time for a simulated network.
 */
public interface PacketTap {
    enum Direction { SENT, RECEIVED, DROPPED }

    /** Both taps, in order (a capture file and a live log, say). */
    static PacketTap both(PacketTap first, PacketTap second) {
        return new PacketTap() {
            @Override
            public void packet(Direction d, PeerAddress s, PeerAddress t, int sp, int dp, int id, ByteBuffer roce, int off,
                               int len, long ts, String c) {
                first.packet(d, s, t, sp, dp, id, roce, off, len, ts, c);
                second.packet(d, s, t, sp, dp, id, roce, off, len, ts, c);
            }

            @Override
            public void packet(Direction d, PeerAddress s, PeerAddress t, int sp, int dp, int id, int tos, ByteBuffer roce,
                               int off, int len, long ts, String c) {
                first.packet(d, s, t, sp, dp, id, tos, roce, off, len, ts, c);
                second.packet(d, s, t, sp, dp, id, tos, roce, off, len, ts, c);
            }
        };
    }

    void packet(Direction direction, PeerAddress source, PeerAddress destination, int sourcePort, int destinationPort,
                int identification, ByteBuffer roce, int offset, int length, long timestampNanos, String comment);

    /**
     * As the other {@code packet}, with the TOS byte (IPv4) or traffic class (IPv6) of the packet's IP header, which
     * holds its ECN codepoint, where the port knows it. A tap that writes IP headers (a capture) takes it; the others
     * need not.
     */
    default void packet(Direction direction, PeerAddress source, PeerAddress destination, int sourcePort,
                        int destinationPort, int identification, int trafficClass, ByteBuffer roce, int offset, int length,
                        long timestampNanos, String comment) {
        packet(direction, source, destination, sourcePort, destinationPort, identification, roce, offset, length,
                timestampNanos, comment);
    }
}
