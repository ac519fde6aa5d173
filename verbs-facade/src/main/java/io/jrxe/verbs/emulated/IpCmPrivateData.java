package io.jrxe.verbs.emulated;

import io.jrxe.verbs.cm.PortSpace;
import io.jrxe.wire.cm.IpCmHeaderFlyweight;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The private data of a REQ or SIDR_REQ as the RDMA IP CM service lays it out: its 36-byte header
 * (the active side's address and port, the destination address) and the consumer's bytes after it.
 * The passive side learns the peer's IP address and port from here, as Linux's rdma_cm does.
 *
 * @param source      the active side's address and port
 * @param destination the address the active side connected to (its port is in the service ID)
 * @param consumer    the consumer's private data: the rest of the field
 */
record IpCmPrivateData(InetSocketAddress source, InetAddress destination, byte[] consumer) {
    /** A REQ's private data field. */
    static final int REQ_FIELD = 92;
    /** A SIDR_REQ's private data field. */
    static final int SIDR_REQ_FIELD = 216;

    /** How many consumer bytes fit beside the header in a request of this port space (56 for TCP, 180 for UDP). */
    static int consumerRoom(PortSpace space) {
        return (space == PortSpace.TCP ? REQ_FIELD : SIDR_REQ_FIELD) - IpCmHeaderFlyweight.LENGTH;
    }

    /** The header for {@code source} to {@code destination}, then the consumer's bytes. */
    static byte[] build(InetSocketAddress source, InetAddress destination, byte[] consumer) {
        byte[] field = new byte[IpCmHeaderFlyweight.LENGTH + consumer.length];
        IpCmHeaderFlyweight h = new IpCmHeaderFlyweight().wrap(ByteBuffer.wrap(field), 0);
        InetAddress from = source.getAddress();
        if (from instanceof Inet4Address && destination instanceof Inet4Address) {
            h.setIpv4(source.getPort(), ByteBuffer.wrap(from.getAddress()).getInt(),
                    ByteBuffer.wrap(destination.getAddress()).getInt());
        } else {
            h.setIpv6(source.getPort(), sixteen(from), sixteen(destination));
        }
        System.arraycopy(consumer, 0, field, IpCmHeaderFlyweight.LENGTH, consumer.length);
        return field;
    }

    /** Reads a request's private data field; null when it does not start with an IP CM header of version 0.0. */
    static IpCmPrivateData parse(byte[] field) {
        if (field.length < IpCmHeaderFlyweight.LENGTH) {
            return null;
        }
        IpCmHeaderFlyweight h = new IpCmHeaderFlyweight().wrap(ByteBuffer.wrap(field), 0);
        if (h.majorVersion() != 0 || h.minorVersion() != 0 || (h.ipVersion() != 4 && h.ipVersion() != 6)) {
            return null;
        }
        byte[] source = new byte[16];
        byte[] destination = new byte[16];
        h.getSourceAddress(source, 0).getDestinationAddress(destination, 0);
        boolean v4 = h.ipVersion() == 4;
        byte[] consumer = Arrays.copyOfRange(field, IpCmHeaderFlyweight.LENGTH, field.length);
        return new IpCmPrivateData(new InetSocketAddress(address(source, v4), h.sourcePort()),
                address(destination, v4), consumer);
    }

    private static InetAddress address(byte[] field, boolean v4) {
        try {
            return InetAddress.getByAddress(v4 ? Arrays.copyOfRange(field, 12, 16) : field);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("4 or 16 bytes are an address", e);
        }
    }

    /** An address in 16 bytes: IPv6 as it is, IPv4 mapped (::ffff:a.b.c.d), as a mixed pair is sent. */
    private static byte[] sixteen(InetAddress a) {
        byte[] b = a.getAddress();
        if (b.length == 16) {
            return b;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        System.arraycopy(b, 0, mapped, 12, 4);
        return mapped;
    }
}
