package io.jrxe.wire.ecn;

/**
 * The two ECN bits of the IPv4 TOS byte and of the IPv6 traffic class (RFC 3168 section 5), and the
 * six DSCP bits above them (RFC 2474).
 */
public final class Ecn {
    /** Not ECN-capable transport. */
    public static final int NOT_ECT = 0b00;
    /** ECN-capable transport, codepoint 1. */
    public static final int ECT_1 = 0b01;
    /** ECN-capable transport, codepoint 0: what RoCEv2 NICs mark their traffic with. */
    public static final int ECT_0 = 0b10;
    /** Congestion experienced: a switch marked the packet instead of dropping it. */
    public static final int CE = 0b11;

    private static final String[] NAMES = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};

    private Ecn() {
    }

    /** The ECN codepoint of a TOS byte or traffic class. */
    public static int of(int tos) {
        return tos & 0b11;
    }

    /** The DSCP of a TOS byte or traffic class. */
    public static int dscp(int tos) {
        return (tos >>> 2) & 0x3F;
    }

    /** Not-ECT, ECT(1), ECT(0) or CE, as RFC 3168 names them. */
    public static String name(int codepoint) {
        return NAMES[codepoint & 0b11];
    }
}
