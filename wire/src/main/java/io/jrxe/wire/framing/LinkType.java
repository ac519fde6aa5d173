package io.jrxe.wire.framing;

/** The capture link types (tcpdump.org's LINKTYPE_ values) whose frames jrxe can take apart. */
public final class LinkType {
    public static final int NULL = 0;
    public static final int ETHERNET = 1;
    public static final int RAW = 101;
    public static final int LINUX_SLL = 113;
    public static final int IPV4 = 228;
    public static final int IPV6 = 229;
    public static final int LINUX_SLL2 = 276;

    private LinkType() {
    }

    public static String name(int linkType) {
        return switch (linkType) {
            case NULL -> "BSD loopback";
            case ETHERNET -> "Ethernet";
            case RAW -> "raw IP";
            case LINUX_SLL -> "Linux cooked";
            case IPV4 -> "raw IPv4";
            case IPV6 -> "raw IPv6";
            case LINUX_SLL2 -> "Linux cooked v2";
            default -> "link type " + linkType;
        };
    }
}
