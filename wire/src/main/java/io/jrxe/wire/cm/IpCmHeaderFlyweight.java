package io.jrxe.wire.cm;

import io.jrxe.wire.header.Flyweight;

/**
 * The header the RDMA IP CM service puts at the start of a REQ's (or SIDR_REQ's) private data
 * (IBTA annex A11; librdmacm and the kernel's rdma_cm call it the CMA header), 36 bytes:
 * <pre>
 *  byte 0       major version(7..4) minor version(3..0)   both 0
 *  byte 1       IP version(7..4): 4 or 6, reserved(3..0)
 *  bytes 2-3    source port (the active side's port; the destination port is in the service ID)
 *  bytes 4-19   source IP address
 *  bytes 20-35  destination IP address
 * </pre>
 * An IPv4 address takes the last 4 bytes of its 16, after 12 zero bytes (not the ::ffff: mapped
 * form). The consumer's own private data follows, {@link #CONSUMER_DATA_OFFSET} bytes in.
 * Wrap it at {@link CmMessageFlyweight#privateDataOffset()}.
 */
public final class IpCmHeaderFlyweight extends Flyweight<IpCmHeaderFlyweight> {
    public static final int LENGTH = 36;
    public static final int VERSION_OFFSET = 0;
    public static final int IP_VERSION_OFFSET = 1;
    public static final int SOURCE_PORT_OFFSET = 2;
    public static final int SOURCE_ADDRESS_OFFSET = 4;
    public static final int DESTINATION_ADDRESS_OFFSET = 20;
    public static final int ADDRESS_LENGTH = 16;
    /** Where the consumer's private data starts, counted from the private data's first byte. */
    public static final int CONSUMER_DATA_OFFSET = LENGTH;
    /** The IPv4 address's place in its 16-byte field. */
    private static final int IPV4_IN_FIELD = 12;

    @Override
    public int length() {
        return LENGTH;
    }

    public int majorVersion() {
        return u8(VERSION_OFFSET) >>> 4;
    }

    public IpCmHeaderFlyweight majorVersion(int version) {
        u8(VERSION_OFFSET, u8(VERSION_OFFSET) & 0x0F | (version & 0xF) << 4);
        return this;
    }

    public int minorVersion() {
        return u8(VERSION_OFFSET) & 0xF;
    }

    public IpCmHeaderFlyweight minorVersion(int version) {
        u8(VERSION_OFFSET, u8(VERSION_OFFSET) & 0xF0 | version & 0xF);
        return this;
    }

    /** 4 or 6: which form the two addresses take. */
    public int ipVersion() {
        return u8(IP_VERSION_OFFSET) >>> 4;
    }

    public IpCmHeaderFlyweight ipVersion(int version) {
        u8(IP_VERSION_OFFSET, u8(IP_VERSION_OFFSET) & 0x0F | (version & 0xF) << 4);
        return this;
    }

    /** The low nibble of byte 1. */
    public int reserved() {
        return u8(IP_VERSION_OFFSET) & 0xF;
    }

    public IpCmHeaderFlyweight reserved(int bits) {
        u8(IP_VERSION_OFFSET, u8(IP_VERSION_OFFSET) & 0xF0 | bits & 0xF);
        return this;
    }

    public int sourcePort() {
        return u16(SOURCE_PORT_OFFSET);
    }

    public IpCmHeaderFlyweight sourcePort(int port) {
        u16(SOURCE_PORT_OFFSET, port);
        return this;
    }

    /** Copies the 16-byte source address field into {@code dst} at {@code dstOffset}. */
    public IpCmHeaderFlyweight getSourceAddress(byte[] dst, int dstOffset) {
        buffer.get(offset + SOURCE_ADDRESS_OFFSET, dst, dstOffset, ADDRESS_LENGTH);
        return this;
    }

    /** Writes a whole 16-byte source address field (an IPv6 address). */
    public IpCmHeaderFlyweight putSourceAddress(byte[] src, int srcOffset) {
        buffer.put(offset + SOURCE_ADDRESS_OFFSET, src, srcOffset, ADDRESS_LENGTH);
        return this;
    }

    public IpCmHeaderFlyweight getDestinationAddress(byte[] dst, int dstOffset) {
        buffer.get(offset + DESTINATION_ADDRESS_OFFSET, dst, dstOffset, ADDRESS_LENGTH);
        return this;
    }

    public IpCmHeaderFlyweight putDestinationAddress(byte[] src, int srcOffset) {
        buffer.put(offset + DESTINATION_ADDRESS_OFFSET, src, srcOffset, ADDRESS_LENGTH);
        return this;
    }

    /** The IPv4 source address (the field's last 4 bytes), as a big-endian int. */
    public int sourceIpv4() {
        return i32(SOURCE_ADDRESS_OFFSET + IPV4_IN_FIELD);
    }

    /** Writes an IPv4 source address: 12 zero bytes, then the address. */
    public IpCmHeaderFlyweight sourceIpv4(int address) {
        putIpv4(SOURCE_ADDRESS_OFFSET, address);
        return this;
    }

    public int destinationIpv4() {
        return i32(DESTINATION_ADDRESS_OFFSET + IPV4_IN_FIELD);
    }

    public IpCmHeaderFlyweight destinationIpv4(int address) {
        putIpv4(DESTINATION_ADDRESS_OFFSET, address);
        return this;
    }

    /** Writes an IPv4 header: versions 0.0, IP version 4, the port and the two addresses. */
    public IpCmHeaderFlyweight setIpv4(int sourcePort, int sourceAddress, int destinationAddress) {
        i32(VERSION_OFFSET, 0x0040_0000 | sourcePort & 0xFFFF);
        putIpv4(SOURCE_ADDRESS_OFFSET, sourceAddress);
        putIpv4(DESTINATION_ADDRESS_OFFSET, destinationAddress);
        return this;
    }

    /** Writes an IPv6 header: versions 0.0, IP version 6, the port and the two 16-byte addresses. */
    public IpCmHeaderFlyweight setIpv6(int sourcePort, byte[] sourceAddress, byte[] destinationAddress) {
        i32(VERSION_OFFSET, 0x0060_0000 | sourcePort & 0xFFFF);
        putSourceAddress(sourceAddress, 0);
        putDestinationAddress(destinationAddress, 0);
        return this;
    }

    private void putIpv4(int field, int address) {
        i32(field, 0);
        i64(field + 4, 0);
        i32(field + IPV4_IN_FIELD, address);
    }
}
