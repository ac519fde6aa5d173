package io.jrxe.wire.capture;

/**
 * The tcpdump.org LINKTYPE_ numbers that jrxe's captures use. A capture's link type tells
 * readers how to decode the first byte of each frame.
 */
public final class LinkType {
    /** IEEE 802.3 Ethernet: jrxe frames RoCEv2 packets in Ethernet/IP/UDP, as on a real link. */
    public static final int ETHERNET = 1;

    private LinkType() {
    }
}
