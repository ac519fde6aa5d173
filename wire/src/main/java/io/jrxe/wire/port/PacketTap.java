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
        return (d, s, t, sp, dp, id, roce, off, len, ts, c) -> {
            first.packet(d, s, t, sp, dp, id, roce, off, len, ts, c);
            second.packet(d, s, t, sp, dp, id, roce, off, len, ts, c);
        };
    }

    void packet(Direction direction, PeerAddress source, PeerAddress destination, int sourcePort, int destinationPort,
                int identification, ByteBuffer roce, int offset, int length, long timestampNanos, String comment);
}
