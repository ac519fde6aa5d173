package io.jrxe.wire.port;

/**
 * What a port knows about a received packet besides its bytes: where it came from and the IP
 * header fields a UD receiver puts in the GRH area of its buffer. Reused for every packet.
 */
public final class PacketInfo {
    public PeerAddress source;
    public PeerAddress destination;
    public int sourcePort;
    /** IPv4 TTL or IPv6 hop limit. */
    public int ttl;
    /** IPv4 TOS or IPv6 traffic class. */
    public int trafficClass;
    public int flowLabel;
    public int identification;
    /** Receive time on the port's clock. */
    public long timestampNanos;
}
