package io.jrxe.wire.port;

/**
 * What every {@link PacketPort} keeps the same way: its local address, the sink its packets go to and the tap
 * that sees them. The fields are this port object's own (inherited, not held in another object), so a
 * subclass's send and receive paths read them as directly as fields it declared itself. {@code sink} and
 * {@code tap} are volatile: they are set from the NIC's owner while the port's thread reads them.
 */
public abstract class AttachedPort implements PacketPort {
    protected final PeerAddress local;
    protected volatile PacketSink sink;
    protected volatile PacketTap tap;
    /** The comment for the next packet sent (NIC thread only), or null. */
    private String nextSentComment;
    /** The bit the next packet sent has flipped after its ICRC (NIC thread only), or -1. */
    private int nextSentCorruptBit = -1;

    protected AttachedPort(PeerAddress local) {
        this.local = local;
    }

    @Override
    public final PeerAddress localAddress() {
        return local;
    }

    @Override
    public final void receiver(PacketSink sink) {
        this.sink = sink;
    }

    @Override
    public final void tap(PacketTap t) {
        tap = t;
    }

    @Override
    public final PacketTap tap() {
        return tap;
    }

    @Override
    public final void annotateNextSent(String comment) {
        nextSentComment = comment;
    }

    @Override
    public boolean corruptNextSent(int bit) {
        nextSentCorruptBit = bit;
        return true;
    }

    /** Whether the packet being sent is to be corrupted after its ICRC is written. */
    protected final boolean corruptionPending() {
        return nextSentCorruptBit >= 0;
    }

    /** Flips the bit asked for, if any, in packet[offset, offset+length) whose ICRC is written; once. */
    protected final void corruptAfterIcrc(java.nio.ByteBuffer packet, int offset, int length) {
        int bit = nextSentCorruptBit;
        if (bit >= 0) {
            nextSentCorruptBit = -1;
            int at = offset + Math.min(bit >>> 3, length - 1);
            packet.put(at, (byte) (packet.get(at) ^ (1 << (bit & 7))));
        }
    }

    /** The comment set for the packet being sent, once. */
    protected final String takeSentComment() {
        String c = nextSentComment;
        nextSentComment = null;
        return c;
    }
}
