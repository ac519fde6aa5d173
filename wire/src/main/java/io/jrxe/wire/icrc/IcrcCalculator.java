package io.jrxe.wire.icrc;

import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.header.BthFlyweight;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The RoCEv2 invariant CRC (IBTA annex A17.3.3): CRC-32 (IEEE, as {@link CRC32}) over
 * <ol>
 *   <li>8 bytes of 0xFF standing for the masked LRH,</li>
 *   <li>the IP header with its variant fields set to all ones (IPv4: TOS, TTL and header
 *       checksum; IPv6: traffic class, flow label and hop limit),</li>
 *   <li>the UDP header with its checksum set to all ones,</li>
 *   <li>the BTH with its byte 4 (FECN, BECN, reserved) set to all ones,</li>
 *   <li>everything after the BTH up to the ICRC itself.</li>
 * </ol>
 * The 32-bit result goes on the wire least significant byte first. The IPv4 identification is
 * covered, which a UDP socket can neither choose nor see: callers pass the one that was (or
 * will be) on the wire.
 *
 * <p>Not thread-safe: one instance per NIC thread. No allocation per packet.
 */
public final class IcrcCalculator {
    public static final int LENGTH = 4;
    public static final int LRH_MASK_LENGTH = 8;
    public static final int IPV4_HEADER_LENGTH = 20;
    public static final int IPV6_HEADER_LENGTH = 40;
    public static final int UDP_HEADER_LENGTH = 8;
    public static final int IP_PROTO_UDP = 17;

    private static final int MAX_IPV4_HEADER_LENGTH = 60;

    private final CRC32 crc = new CRC32();
    private final byte[] prefix = new byte[LRH_MASK_LENGTH + MAX_IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + BthFlyweight.LENGTH];
    private final ByteBuffer prefixView = ByteBuffer.wrap(prefix);
    private boolean rxeFlush;

    public IcrcCalculator() {
        for (int i = 0; i < LRH_MASK_LENGTH; i++) {
            prefix[i] = (byte) 0xFF;
        }
    }

    /**
     * Computes an RC FLUSH's ICRC as Linux's rxe does (6.2, when it gained FLUSH, to 6.12 at
     * least): its opcode table gives FLUSH no payload offset, so the payload it adds to the CRC
     * starts at the BTH, and the ICRC covers the FLUSH's BTH, FETH and RETH a second time, as they
     * are on the wire, after the masked headers. Every other opcode is unchanged.
     */
    public IcrcCalculator rxeFlush(boolean asRxe) {
        this.rxeFlush = asRxe;
        return this;
    }

    /** Whether the packet whose BTH starts at {@code bthOffset} is an RC FLUSH, whose ICRC rxe computes its own way. */
    public static boolean isFlush(ByteBuffer roce, int bthOffset) {
        return roce.get(bthOffset) == (byte) Opcode.RC_FLUSH.code();
    }

    /**
     * ICRC of a RoCEv2 packet carried over IPv4 (20-byte header, no options, as rxe sends).
     *
     * @param roce        buffer holding the UDP payload: BTH ... payload, pad, ICRC
     * @param bthOffset   where the BTH starts in {@code roce}
     * @param roceLength  the UDP payload length, ICRC included
     * @param flagsFragment the 16-bit flags and fragment offset word (0x4000 for DF, as rxe sends)
     */
    public int ipv4(int srcAddr, int dstAddr, int identification, int flagsFragment,
                    int srcPort, int dstPort, ByteBuffer roce, int bthOffset, int roceLength) {
        ByteBuffer p = prefixView;
        int ip = LRH_MASK_LENGTH;
        p.putInt(ip, 0x45FF_0000 | (IPV4_HEADER_LENGTH + UDP_HEADER_LENGTH + roceLength));
        p.putInt(ip + 4, (identification & 0xFFFF) << 16 | (flagsFragment & 0xFFFF));
        p.putInt(ip + 8, 0xFF00_FFFF | IP_PROTO_UDP << 16);
        p.putInt(ip + 12, srcAddr);
        p.putInt(ip + 16, dstAddr);
        int udp = ip + IPV4_HEADER_LENGTH;
        return finish(udp, srcPort, dstPort, roce, bthOffset, roceLength);
    }

    /**
     * ICRC of a RoCEv2 packet carried over IPv6 (no extension headers, as rxe sends). The
     * traffic class, flow label and hop limit are masked, so they need not be passed.
     *
     * @param srcAddr 16 bytes, the source address (the sender's GID)
     * @param dstAddr 16 bytes, the destination address
     */
    public int ipv6(byte[] srcAddr, byte[] dstAddr, int srcPort, int dstPort,
                    ByteBuffer roce, int bthOffset, int roceLength) {
        ByteBuffer p = prefixView;
        int ip = LRH_MASK_LENGTH;
        p.putInt(ip, 0x6FFF_FFFF);
        p.putInt(ip + 4, (UDP_HEADER_LENGTH + roceLength) << 16 | IP_PROTO_UDP << 8 | 0xFF);
        System.arraycopy(srcAddr, 0, prefix, ip + 8, 16);
        System.arraycopy(dstAddr, 0, prefix, ip + 24, 16);
        int udp = ip + IPV6_HEADER_LENGTH;
        return finish(udp, srcPort, dstPort, roce, bthOffset, roceLength);
    }

    /**
     * ICRC of a whole IP packet (IPv4 or IPv6, told by its version nibble) as it was on the
     * wire, e.g. from a capture: every covered field is read from the buffer.
     *
     * @param ipOffset where the IP header starts
     * @param ipLength bytes from the IP header to the end of the ICRC
     */
    public int ofIpPacket(ByteBuffer packet, int ipOffset, int ipLength) {
        int version = (packet.get(ipOffset) & 0xF0) >>> 4;
        int ipHeaderLength;
        if (version == 4) {
            ipHeaderLength = (packet.get(ipOffset) & 0x0F) * 4;
            packet.get(ipOffset, prefix, LRH_MASK_LENGTH, ipHeaderLength);
            prefix[LRH_MASK_LENGTH + 1] = (byte) 0xFF;                       // TOS
            prefix[LRH_MASK_LENGTH + 8] = (byte) 0xFF;                       // TTL
            prefix[LRH_MASK_LENGTH + 10] = (byte) 0xFF;                      // header checksum
            prefix[LRH_MASK_LENGTH + 11] = (byte) 0xFF;
        } else if (version == 6) {
            ipHeaderLength = IPV6_HEADER_LENGTH;
            packet.get(ipOffset, prefix, LRH_MASK_LENGTH, ipHeaderLength);
            prefixView.putInt(LRH_MASK_LENGTH, 0x6FFF_FFFF);                 // traffic class, flow label
            prefix[LRH_MASK_LENGTH + 7] = (byte) 0xFF;                       // hop limit
        } else {
            throw new IllegalArgumentException("not an IP packet: version " + version);
        }
        int udpAt = ipOffset + ipHeaderLength;
        int bth = udpAt + UDP_HEADER_LENGTH;
        int roceLength = ipLength - ipHeaderLength - UDP_HEADER_LENGTH;
        return finish(LRH_MASK_LENGTH + ipHeaderLength, packet.getShort(udpAt) & 0xFFFF,
                packet.getShort(udpAt + 2) & 0xFFFF, packet, bth, roceLength, packet.getShort(udpAt + 4) & 0xFFFF);
    }

    private int finish(int udp, int srcPort, int dstPort, ByteBuffer roce, int bthOffset, int roceLength) {
        return finish(udp, srcPort, dstPort, roce, bthOffset, roceLength, UDP_HEADER_LENGTH + roceLength);
    }

    private int finish(int udp, int srcPort, int dstPort, ByteBuffer roce, int bthOffset, int roceLength,
                       int udpLength) {
        if (roceLength < BthFlyweight.LENGTH + LENGTH) {
            throw new IllegalArgumentException("a RoCE packet of " + roceLength + " bytes cannot hold a BTH and an ICRC");
        }
        ByteBuffer p = prefixView;
        p.putInt(udp, srcPort << 16 | (dstPort & 0xFFFF));
        p.putInt(udp + 4, udpLength << 16 | 0xFFFF);
        int bth = udp + UDP_HEADER_LENGTH;
        roce.get(bthOffset, prefix, bth, BthFlyweight.LENGTH);
        prefix[bth + BthFlyweight.ECN_OFFSET] = (byte) 0xFF;

        CRC32 c = crc;
        c.reset();
        c.update(prefix, 0, bth + BthFlyweight.LENGTH);
        int start = bthOffset + BthFlyweight.LENGTH;
        int end = bthOffset + roceLength - LENGTH;
        if (end > start) {
            updateRange(c, roce, start, end);
        }
        if (rxeFlush && isFlush(roce, bthOffset)) {
            updateRange(c, roce, bthOffset, end);
        }
        return (int) c.getValue();
    }

    /** Feeds roce[start, end) to the CRC without allocating: the buffer's position and limit are restored. */
    private static void updateRange(CRC32 c, ByteBuffer buffer, int start, int end) {
        int position = buffer.position();
        int limit = buffer.limit();
        try {
            buffer.limit(end).position(start);
            c.update(buffer);
        } finally {
            buffer.limit(limit).position(position);
        }
    }

    /** The ICRC stored at this offset (it travels least significant byte first). */
    public static int read(ByteBuffer buffer, int at) {
        return Integer.reverseBytes(buffer.getInt(at));
    }

    public static void write(ByteBuffer buffer, int at, int icrc) {
        buffer.putInt(at, Integer.reverseBytes(icrc));
    }
}
