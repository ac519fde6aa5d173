package io.jrxe.wire.sim;

import io.jrxe.wire.port.PeerAddress;

/**
 * One copy of a datagram on its way through a {@link PacketPath}: the RoCE bytes and what the IP and UDP headers
 * around them would say. The traffic class is the only thing a hop may change (a switch marking ECN CE); it sits
 * outside the bytes the ICRC covers, as the IP header's TOS byte does.
 */
public final class Frame {
    /** The sending port's address. */
    public PeerAddress source;
    /** The IP destination: a port's address or a multicast group. */
    public PeerAddress destination;
    /** The port this copy is for (the destination itself, or one member of its group). */
    public PeerAddress receiver;
    public byte[] roce;
    public int sourcePort;
    public int identification;
    /** The IP header's TOS byte (IPv6 traffic class): DSCP and the two ECN bits. */
    public int trafficClass;

    /** A frame to {@link #set}: a {@link PacketPath} makes a few and sets them again and again. */
    public Frame() {
    }

    /** Makes this frame the copy of a datagram described; returns it. */
    public Frame set(PeerAddress source, PeerAddress destination, PeerAddress receiver, byte[] roce, int sourcePort,
                     int identification, int trafficClass) {
        this.source = source;
        this.destination = destination;
        this.receiver = receiver;
        this.roce = roce;
        this.sourcePort = sourcePort;
        this.identification = identification;
        this.trafficClass = trafficClass;
        return this;
    }

    /** The bytes the frame takes on an Ethernet link: RoCE, UDP, IP, Ethernet header and FCS, preamble and gap. */
    public int wireBytes() {
        return roce.length + UDP_HEADER + (source.ipv6() ? IPV6_HEADER : IPV4_HEADER) + ETHERNET_OVERHEAD;
    }

    private static final int UDP_HEADER = 8;
    private static final int IPV4_HEADER = 20;
    private static final int IPV6_HEADER = 40;
    /** Header (14), FCS (4), preamble and start delimiter (8), inter-frame gap (12). */
    private static final int ETHERNET_OVERHEAD = 38;
}
