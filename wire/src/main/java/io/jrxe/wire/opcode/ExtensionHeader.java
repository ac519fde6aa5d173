package io.jrxe.wire.opcode;

/**
 * The headers that may follow the BTH, in the order they appear on the wire when several are
 * present (IBTA 9.2: RDETH, DETH, FETH, RETH, AtomicETH, AETH, AtomicAckETH, ImmDt, IETH).
 * Each has a bit so that an opcode's set of headers is a plain int mask.
 */
public enum ExtensionHeader {
    DETH(8, "Datagram Extended Transport Header"),
    FETH(4, "Flush Extended Transport Header"),
    RETH(16, "RDMA Extended Transport Header"),
    ATOMIC_ETH(28, "Atomic Extended Transport Header"),
    AETH(4, "ACK Extended Transport Header"),
    ATOMIC_ACK_ETH(8, "Atomic ACK Extended Transport Header"),
    IMMDT(4, "Immediate Data"),
    IETH(4, "Invalidate Extended Transport Header"),
    /** The 16 reserved bytes that follow the BTH of a RoCEv2 CNP. */
    CNP_RESERVED(16, "CNP reserved bytes");

    private final int length;
    private final String description;

    ExtensionHeader(int length, String description) {
        this.length = length;
        this.description = description;
    }

    public int length() {
        return length;
    }

    public int bit() {
        return 1 << ordinal();
    }

    public String description() {
        return description;
    }

    public boolean in(int mask) {
        return (mask & bit()) != 0;
    }

    static int mask(ExtensionHeader... headers) {
        int mask = 0;
        for (ExtensionHeader header : headers) {
            mask |= header.bit();
        }
        return mask;
    }
}
