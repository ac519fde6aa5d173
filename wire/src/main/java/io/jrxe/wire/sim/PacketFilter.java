package io.jrxe.wire.sim;

import io.jrxe.wire.port.PeerAddress;

/**
 * A test's hand on the simulated wire: sees every packet (the RoCE bytes, ICRC included) before
 * the configured faults, and may drop it or change it in place (the ICRC is then recomputed, so
 * a changed packet arrives as if its sender had sent it so).
 */
@FunctionalInterface
public interface PacketFilter {
    enum Verdict { PASS, DROP, MODIFIED }

    Verdict inspect(PeerAddress from, PeerAddress to, byte[] roce);
}
