package io.jrxe.tools.conformance;

import io.jrxe.wire.port.PeerAddress;

/**
 * How the tester's packets reach the target and its answers come back: UDP sockets ({@link UdpCarriage}) or the
 * shared-memory wire ({@link ShmCarriage}). The packets themselves, their ICRCs included, are {@link TesterPort}'s;
 * a carriage only moves finished bytes, from the tester's own address or from the third one.
 */
interface TesterCarriage extends AutoCloseable {
    /** What carries the packets, for the report's head: "UDP socket". */
    String describe();

    /** Why the tester sends without a raw socket when it was not asked for one. */
    String withoutRaw();

    /** The UDP source port the tester's packets carry from its own address or the third one (their ICRCs cover it). */
    int sourcePort(PacketRecipe.Source from);

    /** Sends finished bytes to the target's port 4791; {@link UnsentPacket} when they cannot leave. */
    void send(byte[] roce, PacketRecipe.Source from, PeerAddress target);

    /** The next packet the target sent to the tester's own address, or null when none came before the deadline. */
    Arrival receive(PeerAddress target, long deadlineNanos);

    @Override
    void close();

    /** A packet from the target as it arrived: its bytes, BTH to ICRC, and its UDP source port. */
    record Arrival(byte[] roce, int sourcePort) {
    }
}
