package io.jrxe.wire.framing;

import io.jrxe.wire.icrc.IcrcCalculator;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.nio.ByteBuffer;

/**
 * Puts the Ethernet, IP and UDP headers that a kernel would add around a RoCEv2 packet (the UDP
 * payload), for captures: what the capture shows in every field the ICRC covers is what the
 * ICRC was computed over. Defaults are what rxe sends: IPv4 with DF set, TTL 64, TOS 0, UDP
 * checksum 0; IPv6 with traffic class 0, flow label 0, hop limit 64, UDP checksum 0.
 *
 * <p>One instance per writer thread, reconfigured per flow; no allocation per frame.
 */
public final class RoceFramer {
    public static final int ETHERNET_HEADER_LENGTH = 14;
    public static final int ETHERTYPE_IPV4 = 0x0800;
    public static final int ETHERTYPE_IPV6 = 0x86DD;
    public static final int ROCE_V2_PORT = 4791;
    public static final int FLAG_DONT_FRAGMENT = 0x4000;

    private final IcrcCalculator icrc = new IcrcCalculator();
    private long srcMac;
    private long dstMac;
    private boolean ipv6;
    private final byte[] srcAddr = new byte[16];
    private final byte[] dstAddr = new byte[16];
    private int srcPort = 49152;
    private int dstPort = ROCE_V2_PORT;
    private int identification;
    private int flagsFragment = FLAG_DONT_FRAGMENT;
    private int ttl = 64;
    private int tos;
    private int flowLabel;
    private int udpChecksum;

    /** Sets both addresses (both IPv4 or both IPv6) and derives the MACs from them unless set later. */
    public RoceFramer addresses(InetAddress src, InetAddress dst) {
        if (src instanceof Inet4Address != dst instanceof Inet4Address) {
            throw new IllegalArgumentException("source " + src.getHostAddress() + " and destination "
                    + dst.getHostAddress() + " are not of the same IP version");
        }
        return addresses(src.getAddress(), dst.getAddress());
    }

    /** Sets both addresses from their bytes (4 for IPv4, 16 for IPv6) and derives the MACs from them. */
    public RoceFramer addresses(byte[] s, byte[] d) {
        if (s.length != d.length || (s.length != 4 && s.length != 16)) {
            throw new IllegalArgumentException("addresses must both be 4 (IPv4) or 16 (IPv6) bytes, not "
                    + s.length + " and " + d.length);
        }
        ipv6 = s.length == 16;
        System.arraycopy(s, 0, srcAddr, 0, s.length);
        System.arraycopy(d, 0, dstAddr, 0, d.length);
        srcMac = macFor(s);
        dstMac = macFor(d);
        return this;
    }

    /** A locally administered MAC (02:xx:...) made from the low bytes of an IP address, stable per address. */
    public static long macFor(byte[] address) {
        long mac = 0x02L << 40;
        int n = Math.min(4, address.length);
        for (int i = 0; i < n; i++) {
            mac |= (address[address.length - n + i] & 0xFFL) << (8 * (n - 1 - i));
        }
        return mac;
    }

    public RoceFramer macs(long src, long dst) {
        srcMac = src;
        dstMac = dst;
        return this;
    }

    public RoceFramer ports(int src, int dst) {
        srcPort = src;
        dstPort = dst;
        return this;
    }

    public RoceFramer identification(int id) {
        identification = id & 0xFFFF;
        return this;
    }

    public RoceFramer flagsFragment(int word) {
        flagsFragment = word & 0xFFFF;
        return this;
    }

    /** TTL for IPv4, hop limit for IPv6. */
    public RoceFramer ttl(int value) {
        ttl = value & 0xFF;
        return this;
    }

    /** Whether an RC FLUSH gets the ICRC Linux's rxe computes ({@link IcrcCalculator#rxeFlush}) instead of the IBTA's. */
    public RoceFramer rxeFlushIcrc(boolean asRxe) {
        icrc.rxeFlush(asRxe);
        return this;
    }

    /** TOS for IPv4, traffic class for IPv6. */
    public RoceFramer tos(int value) {
        tos = value & 0xFF;
        return this;
    }

    public RoceFramer flowLabel(int label) {
        flowLabel = label & 0xFFFFF;
        return this;
    }

    public RoceFramer udpChecksum(int checksum) {
        udpChecksum = checksum & 0xFFFF;
        return this;
    }

    public boolean ipv6() {
        return ipv6;
    }

    public int headerLength() {
        return ETHERNET_HEADER_LENGTH + (ipv6 ? IcrcCalculator.IPV6_HEADER_LENGTH : IcrcCalculator.IPV4_HEADER_LENGTH)
                + IcrcCalculator.UDP_HEADER_LENGTH;
    }

    /**
     * Writes Ethernet, IP and UDP headers for a UDP payload of roceLength bytes at {@code at}.
     *
     * @return the number of header bytes written ({@link #headerLength()})
     */
    public int writeHeaders(ByteBuffer dst, int at, int roceLength) {
        int p = at;
        dst.putInt(p, (int) (dstMac >>> 16));
        dst.putShort(p + 4, (short) dstMac);
        dst.putInt(p + 6, (int) (srcMac >>> 16));
        dst.putShort(p + 10, (short) srcMac);
        dst.putShort(p + 12, (short) (ipv6 ? ETHERTYPE_IPV6 : ETHERTYPE_IPV4));
        return ETHERNET_HEADER_LENGTH + writeIpUdpHeaders(dst, at + ETHERNET_HEADER_LENGTH, roceLength);
    }

    /** Length of the IP and UDP headers alone: what a raw IP socket is given in front of the RoCE packet. */
    public int ipUdpHeaderLength() {
        return headerLength() - ETHERNET_HEADER_LENGTH;
    }

    /**
     * Writes the IP and UDP headers (no Ethernet) for a UDP payload of roceLength bytes at
     * {@code at}: the bytes a raw IP socket sends, the same ones {@link #icrc} covers.
     *
     * @return the number of header bytes written ({@link #ipUdpHeaderLength()})
     */
    public int writeIpUdpHeaders(ByteBuffer dst, int at, int roceLength) {
        int p = at + writeIpHeader(dst, at, roceLength);
        int udpLength = IcrcCalculator.UDP_HEADER_LENGTH + roceLength;
        dst.putShort(p, (short) srcPort);
        dst.putShort(p + 2, (short) dstPort);
        dst.putShort(p + 4, (short) udpLength);
        dst.putShort(p + 6, (short) udpChecksum);
        return p + IcrcCalculator.UDP_HEADER_LENGTH - at;
    }

    /**
     * Writes the IP header alone (IPv4 with its checksum, or IPv6) for a UDP datagram carrying
     * roceLength bytes: also what a UD receive's GRH area holds.
     *
     * @return the number of bytes written (20 or 40)
     */
    public int writeIpHeader(ByteBuffer dst, int at, int roceLength) {
        int udpLength = IcrcCalculator.UDP_HEADER_LENGTH + roceLength;
        if (ipv6) {
            dst.putInt(at, 6 << 28 | tos << 20 | flowLabel);
            dst.putInt(at + 4, udpLength << 16 | IcrcCalculator.IP_PROTO_UDP << 8 | ttl);
            dst.put(at + 8, srcAddr, 0, 16);
            dst.put(at + 24, dstAddr, 0, 16);
            return IcrcCalculator.IPV6_HEADER_LENGTH;
        }
        dst.putInt(at, 0x45 << 24 | tos << 16 | (IcrcCalculator.IPV4_HEADER_LENGTH + udpLength));
        dst.putInt(at + 4, identification << 16 | flagsFragment);
        dst.putInt(at + 8, ttl << 24 | IcrcCalculator.IP_PROTO_UDP << 16);
        dst.put(at + 12, srcAddr, 0, 4);
        dst.put(at + 16, dstAddr, 0, 4);
        dst.putShort(at + 10, (short) Ipv4Checksum.compute(dst, at, IcrcCalculator.IPV4_HEADER_LENGTH));
        return IcrcCalculator.IPV4_HEADER_LENGTH;
    }

    /** The ICRC of a RoCE packet framed with the current settings. */
    public int icrc(ByteBuffer roce, int bthOffset, int roceLength) {
        if (ipv6) {
            return icrc.ipv6(srcAddr, dstAddr, srcPort, dstPort, roce, bthOffset, roceLength);
        }
        return icrc.ipv4(ipv4Int(srcAddr), ipv4Int(dstAddr), identification, flagsFragment, srcPort, dstPort,
                roce, bthOffset, roceLength);
    }

    /**
     * Frames a RoCE packet: headers, then the packet copied from {@code roce}; with
     * {@code computeIcrc} its last four bytes are replaced by the ICRC for these headers.
     *
     * @return the frame's length
     */
    public int frame(ByteBuffer dst, int at, ByteBuffer roce, int roceOffset, int roceLength, boolean computeIcrc) {
        int headers = writeHeaders(dst, at, roceLength);
        int bth = at + headers;
        dst.put(bth, roce, roceOffset, roceLength);
        if (computeIcrc) {
            IcrcCalculator.write(dst, bth + roceLength - IcrcCalculator.LENGTH, icrc(dst, bth, roceLength));
        }
        return headers + roceLength;
    }

    private static int ipv4Int(byte[] a) {
        return (a[0] & 0xFF) << 24 | (a[1] & 0xFF) << 16 | (a[2] & 0xFF) << 8 | (a[3] & 0xFF);
    }
}
