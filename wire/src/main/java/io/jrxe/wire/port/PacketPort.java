package io.jrxe.wire.port;

import io.jrxe.wire.stats.CounterRegistry;

import java.nio.ByteBuffer;

/**
 * A device's attachment to a network: sends RoCEv2 packets (UDP payloads) and delivers the
 * ones it receives to a {@link PacketSink}. The port owns the IP and UDP headers, so it computes
 * the ICRC on send (the packet's last four bytes are reserved for it) and checks it on receive.
 */
public interface PacketPort extends AutoCloseable {
    PeerAddress localAddress();

    /**
     * Sends packet[offset, offset+length) to {@code to} from UDP source port {@code srcPort}.
     * The buffer is only read during the call; the port writes the ICRC into its last 4 bytes.
     */
    void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort);

    /**
     * A packet lost on its way out (fault injection): the port writes its ICRC as {@link #send} would, over IPv4 for
     * the identification it would have given the packet, and shows it to the tap as DROPPED with the comment
     * {@link #annotateNextSent} set, but sends nothing. So a capture holds the lost packet as it would have left, its
     * ICRC right for the headers the capture shows. On the NIC thread.
     */
    void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort);

    void receiver(PacketSink sink);

    /**
     * Starts receiving the datagrams sent to the multicast group {@code group}, as a host that joined the group on
     * the port's interface does (IGMP or MLD); they reach the sink with the group as their destination. A port
     * joins a group once; the NIC counts its QPs. Not on the NIC thread: joining may wait for the socket layer.
     *
     * @throws MulticastJoinException when the port cannot join (no interface has its address, another family, ...)
     */
    default void joinGroup(PeerAddress group) throws MulticastJoinException {
        throw new MulticastJoinException(getClass().getSimpleName() + " cannot receive multicast");
    }

    /** Stops receiving the group's datagrams (the last QP left it). Not on the NIC thread. */
    default void leaveGroup(PeerAddress group) {
    }

    /**
     * Registers the port's own counters (transmit failures and the like) with the NIC's registry, so that
     * every reader of the NIC's counters sees them. A port that counts nothing of its own registers nothing.
     */
    default void registerCounters(CounterRegistry registry) {
    }

    /** Shows every packet sent, received or dropped to the tap (capture mode); null removes it. */
    void tap(PacketTap tap);

    /** The tap in place, or null. */
    PacketTap tap();

    /**
     * Sends at once what the port holds back for its batched flush at the end of the NIC's turn. For a packet a
     * peer is waiting on alone, a connection manager's answer: the rest of the turn (events handed to the program,
     * code run the first time) must not delay it. On the NIC thread.
     */
    default void flush() {
    }

    /**
     * A QP will send to {@code to} (null: to many, a UD QP) from UDP source port {@code srcPort}: it entered RTR. A
     * port that sends each source port's packets from a socket of its own opens and binds that socket now, on the
     * control path. Bound at the QP's first packet instead, those system calls delayed a latency test's first
     * messages by hundreds of microseconds. On the NIC thread.
     */
    default void prepareSource(PeerAddress to, int srcPort) {
    }

    /**
     * A QP that prepared {@code srcPort} for {@code to} no longer sends from it (it was destroyed, reset, or moved
     * to another path). When no QP uses the port any more, a port with a socket per source port closes that socket,
     * so that a program creating and destroying QPs without end keeps no more sockets than it has QPs. Each call
     * matches one {@link #prepareSource}. On the NIC thread.
     */
    default void releaseSource(PeerAddress to, int srcPort) {
    }

    /**
     * The next packet sent carries this comment in the capture (a retransmission, a NAK's reason). Callers
     * build the text only when {@link #tap()} is set; a port without a tap ignores it.
     */
    default void annotateNextSent(String comment) {
    }

    /**
     * The next packet sent has bit {@code bit} (from its first byte) flipped after its ICRC was written, as a link's
     * error would: the receiving port drops it as corrupt (fault injection). False when this port cannot.
     */
    default boolean corruptNextSent(int bit) {
        return false;
    }

    /**
     * The NIC dropped a packet this port delivered (unknown QP, bad Q_Key, ...): the tap, if any,
     * records it with the reason as its comment.
     */
    default void reportDrop(ByteBuffer buffer, int offset, int length, PacketInfo info, DropReason reason) {
        PacketTap t = tap();
        if (t != null) {
            t.packet(PacketTap.Direction.DROPPED, info.source, info.destination, info.sourcePort, PeerAddress.ROCE_PORT,
                    info.identification, buffer, offset, length, info.timestampNanos, "dropped: " + reason.description());
        }
    }

    @Override
    void close();
}
