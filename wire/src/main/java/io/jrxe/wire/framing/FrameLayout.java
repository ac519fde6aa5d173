package io.jrxe.wire.framing;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;

import java.nio.ByteBuffer;

/**
 * Where the IP, UDP and RoCE parts of a captured frame are. {@link #parse} fills it in place
 * (reusable, no allocation) and says whether the frame is a RoCEv2 packet, another packet, or
 * malformed, with the reason.
 */
public final class FrameLayout {
    public enum Kind { ROCE, OTHER, MALFORMED }

    private static final int ETHERTYPE_VLAN = 0x8100;
    private static final int ETHERTYPE_QINQ = 0x88A8;

    private Kind kind;
    private String reason;
    private int ipOffset;
    private int ipVersion;
    private int ipHeaderLength;
    private int ipPacketLength;
    private int udpOffset;
    private int srcPort;
    private int dstPort;
    private int udpLength;
    private int bthOffset;
    private int roceLength;
    private int trailerLength;

    /**
     * Takes apart the frame buffer[offset, offset+length) captured with this link type.
     *
     * @return the kind of frame; for MALFORMED, {@link #reason()} says why
     */
    public Kind parse(ByteBuffer buffer, int offset, int length, int linkType) {
        reason = null;
        ipVersion = 0;
        srcPort = 0;
        dstPort = 0;
        int end = offset + length;
        int ip;
        int etherType;
        switch (linkType) {
            case LinkType.ETHERNET -> {
                if (length < RoceFramer.ETHERNET_HEADER_LENGTH) {
                    return malformed("frame of " + length + " bytes is shorter than an Ethernet header");
                }
                ip = offset + 12;
                etherType = buffer.getShort(ip) & 0xFFFF;
                ip += 2;
                while ((etherType == ETHERTYPE_VLAN || etherType == ETHERTYPE_QINQ) && ip + 4 <= end) {
                    etherType = buffer.getShort(ip + 2) & 0xFFFF;
                    ip += 4;
                }
            }
            case LinkType.LINUX_SLL -> {
                if (length < 16) {
                    return malformed("frame of " + length + " bytes is shorter than a Linux cooked header");
                }
                etherType = buffer.getShort(offset + 14) & 0xFFFF;
                ip = offset + 16;
            }
            case LinkType.LINUX_SLL2 -> {
                if (length < 20) {
                    return malformed("frame of " + length + " bytes is shorter than a Linux cooked v2 header");
                }
                etherType = buffer.getShort(offset) & 0xFFFF;
                ip = offset + 20;
            }
            case LinkType.NULL -> {
                if (length < 4) {
                    return malformed("frame of " + length + " bytes is shorter than a loopback header");
                }
                etherType = -1;
                ip = offset + 4;
            }
            case LinkType.RAW, LinkType.IPV4, LinkType.IPV6 -> {
                etherType = -1;
                ip = offset;
            }
            default -> {
                return other();
            }
        }
        if (ip >= end) {
            return etherType == RoceFramer.ETHERTYPE_IPV4 ? malformed("truncated IPv4 header")
                    : etherType == RoceFramer.ETHERTYPE_IPV6 ? malformed("truncated IPv6 header") : other();
        }
        int version = (buffer.get(ip) & 0xF0) >>> 4;
        if (etherType == RoceFramer.ETHERTYPE_IPV4 && version != 4 || etherType == RoceFramer.ETHERTYPE_IPV6 && version != 6) {
            return malformed("EtherType 0x" + Integer.toHexString(etherType) + " but IP version " + version);
        }
        if (etherType != -1 && etherType != RoceFramer.ETHERTYPE_IPV4 && etherType != RoceFramer.ETHERTYPE_IPV6) {
            return other();
        }
        ipOffset = ip;
        ipVersion = version;
        int protocol;
        if (version == 4) {
            if (end - ip < IcrcCalculator.IPV4_HEADER_LENGTH) {
                return malformed("truncated IPv4 header");
            }
            ipHeaderLength = (buffer.get(ip) & 0x0F) * 4;
            ipPacketLength = buffer.getShort(ip + 2) & 0xFFFF;
            protocol = buffer.get(ip + 9) & 0xFF;
            if (ipHeaderLength < IcrcCalculator.IPV4_HEADER_LENGTH || ipPacketLength < ipHeaderLength) {
                return malformed("bad IPv4 header length " + ipHeaderLength + " / total length " + ipPacketLength);
            }
            if ((buffer.getShort(ip + 6) & 0x3FFF) != 0) {
                return other(); // a fragment: not a whole UDP datagram
            }
        } else if (version == 6) {
            if (end - ip < IcrcCalculator.IPV6_HEADER_LENGTH) {
                return malformed("truncated IPv6 header");
            }
            ipHeaderLength = IcrcCalculator.IPV6_HEADER_LENGTH;
            ipPacketLength = IcrcCalculator.IPV6_HEADER_LENGTH + (buffer.getShort(ip + 4) & 0xFFFF);
            protocol = buffer.get(ip + 6) & 0xFF;
        } else {
            return etherType == -1 ? other() : malformed("unknown IP version " + version);
        }
        if (protocol != IcrcCalculator.IP_PROTO_UDP) {
            return other();
        }
        udpOffset = ip + ipHeaderLength;
        if (ip + ipPacketLength > end) {
            if (ipPacketLength - ipHeaderLength >= IcrcCalculator.UDP_HEADER_LENGTH
                    && udpOffset + IcrcCalculator.UDP_HEADER_LENGTH <= end) {
                // Cut by the snapshot length: the ports still say whether it was a RoCEv2 packet.
                readUdpHeader(buffer);
            }
            return malformed("IP packet of " + ipPacketLength + " bytes, but only " + (end - ip) + " captured");
        }
        if (ipPacketLength - ipHeaderLength < IcrcCalculator.UDP_HEADER_LENGTH) {
            return malformed("truncated UDP header");
        }
        readUdpHeader(buffer);
        trailerLength = end - (ip + ipPacketLength);
        if (dstPort != RoceFramer.ROCE_V2_PORT) {
            return other();
        }
        if (udpLength != ipPacketLength - ipHeaderLength) {
            return malformed("UDP length " + udpLength + " disagrees with the IP length (" + (ipPacketLength - ipHeaderLength) + ")");
        }
        bthOffset = udpOffset + IcrcCalculator.UDP_HEADER_LENGTH;
        roceLength = udpLength - IcrcCalculator.UDP_HEADER_LENGTH;
        if (roceLength < BthFlyweight.LENGTH + IcrcCalculator.LENGTH) {
            return malformed("UDP payload of " + roceLength + " bytes is too short for a BTH and an ICRC");
        }
        kind = Kind.ROCE;
        return kind;
    }

    private void readUdpHeader(ByteBuffer buffer) {
        srcPort = buffer.getShort(udpOffset) & 0xFFFF;
        dstPort = buffer.getShort(udpOffset + 2) & 0xFFFF;
        udpLength = buffer.getShort(udpOffset + 4) & 0xFFFF;
    }

    private Kind malformed(String why) {
        reason = why;
        kind = Kind.MALFORMED;
        return kind;
    }

    private Kind other() {
        kind = Kind.OTHER;
        return kind;
    }

    public Kind kind() {
        return kind;
    }

    public String reason() {
        return reason;
    }

    public int ipOffset() {
        return ipOffset;
    }

    /** 4 or 6; 0 when the frame carries no IP. */
    public int ipVersion() {
        return ipVersion;
    }

    public int ipHeaderLength() {
        return ipHeaderLength;
    }

    /** Bytes from the start of the IP header to the end of the IP packet. */
    public int ipPacketLength() {
        return ipPacketLength;
    }

    public int udpOffset() {
        return udpOffset;
    }

    public int srcPort() {
        return srcPort;
    }

    public int dstPort() {
        return dstPort;
    }

    public int udpLength() {
        return udpLength;
    }

    public int bthOffset() {
        return bthOffset;
    }

    /** The UDP payload's length: BTH to ICRC inclusive. */
    public int roceLength() {
        return roceLength;
    }

    /** Bytes after the IP packet (Ethernet padding of short frames). */
    public int trailerLength() {
        return trailerLength;
    }
}
