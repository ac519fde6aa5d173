package io.jrxe.wire.sim;

import io.jrxe.wire.port.PeerAddress;

/**
 * Told of every fault the {@link SimulatedNetwork} puts on a packet, as it decides it: the network's own
 * record of what happened on the wire, which a test compares with what an analysis of a capture says.
 */
@FunctionalInterface
public interface FaultListener {
    enum Fault {
        /** Never delivered (a configured loss or a filter's drop). */
        LOST,
        /** Delivered twice: the network made a copy. */
        DUPLICATED,
        /** Held back by an extra delay, so that packets sent after it may arrive first. */
        REORDERED,
        /** Delivered with one bit flipped. */
        CORRUPTED
    }

    /**
     * @param roce the packet's RoCE bytes (BTH to ICRC) as sent, before any corruption; the listener must not keep
     *             the array past the call without copying it
     */
    void fault(Fault fault, PeerAddress from, PeerAddress to, byte[] roce);
}
