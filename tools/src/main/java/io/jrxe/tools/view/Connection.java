package io.jrxe.tools.view;

import java.util.ArrayList;
import java.util.List;

/**
 * Two endpoints and the packets between them: an RC or UC QP and its peer, or a pair of UD QPs
 * that sent to each other. The ladder draws one per connection, a lane per endpoint; lane 0 is
 * the endpoint that sent first.
 */
final class Connection {
    final int id;
    final String transport;
    final Endpoint[] lanes;
    /** In time order. */
    final List<ViewPacket> packets = new ArrayList<>();
    /** The lane that sent each packet, by position in {@link #packets}. */
    final List<Integer> senders = new ArrayList<>();

    Connection(int id, String transport, Endpoint first, Endpoint second) {
        this.id = id;
        this.transport = transport;
        this.lanes = new Endpoint[] {first, second};
    }

    void add(ViewPacket v, int lane) {
        packets.add(v);
        senders.add(lane);
    }

    long startNanos() {
        return packets.getFirst().sentNanos;
    }

    long endNanos() {
        long end = 0;
        for (ViewPacket v : packets) {
            end = Math.max(end, Math.max(v.sentNanos, v.arrivedNanos));
        }
        return end;
    }
}
