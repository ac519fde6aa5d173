package io.jrxe.wire.sim;

import io.jrxe.wire.port.PeerAddress;

/**
 * A test's hand on the simulated network or the shared-memory wire ({@link
 * io.jrxe.wire.port.shm.ShmPort#filter}): sees every packet (the RoCE bytes, ICRC included) and
 * may drop it or change it in place. On the simulated network it sees a packet before the network's
 * faults; on the shared-memory wire after the sending device's own.
 */
@FunctionalInterface
public interface PacketFilter {
    enum Verdict {
        /** On its way as it came. */
        PASS,
        /** Lost. */
        DROP,
        /** Changed, its ICRC computed again: it arrives as if its sender had sent it so. */
        MODIFIED,
        /** Changed, its ICRC left as it was: it arrives damaged on its way, for the receiver's ICRC check to find. */
        CORRUPTED
    }

    Verdict inspect(PeerAddress from, PeerAddress to, byte[] roce);
}
