package io.jrxe.tools.common;

import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;

/**
 * Takes apart a packet a port's tap sees (its RoCE bytes and the addresses around them) as the dissector takes apart
 * a captured frame, so that a tool reads jrxe's own packets and a capture file's the same way. One per tap: it
 * reuses its frame buffer, and a tap is called on one NIC thread.
 */
public final class TapDissector {
    private final RoceFramer framer = new RoceFramer();
    private final Dissector dissector = new Dissector();
    private final ByteBuffer frame = ByteBuffer.allocate(70_000);

    public DissectedPacket dissect(PeerAddress source, PeerAddress destination, int sourcePort, int destinationPort,
                                   ByteBuffer roce, int offset, int length, long timestampNanos) {
        return dissect(source, destination, sourcePort, destinationPort, 0, roce, offset, length, timestampNanos);
    }

    /** The same, with the IPv4 identification the tap reported, which an IPv4 packet's ICRC covers. */
    public DissectedPacket dissect(PeerAddress source, PeerAddress destination, int sourcePort, int destinationPort,
                                   int identification, ByteBuffer roce, int offset, int length, long timestampNanos) {
        framer.addresses(source.ipBytes(), destination.ipBytes()).ports(sourcePort, destinationPort)
                .identification(identification);
        int n = framer.frame(frame, 0, roce, offset, length, false);
        byte[] bytes = new byte[n];
        frame.get(0, bytes);
        return dissector.dissect(0, timestampNanos, bytes, LinkType.ETHERNET);
    }
}
