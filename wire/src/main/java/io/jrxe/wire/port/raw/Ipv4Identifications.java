package io.jrxe.wire.port.raw;

/**
 * The IP identifications a device puts on its IPv4 packets: incrementing, as the kernel's are,
 * and never 0, because with IP_HDRINCL the kernel replaces an identification of 0 by one of its
 * own, which would make the ICRC jrxe computed wrong.
 */
public final class Ipv4Identifications {
    private int last;

    /** Starts so that the first identification is {@code first} (0 counts as 1). */
    public Ipv4Identifications(int first) {
        last = (first - 1) & 0xFFFF;
    }

    /** The next identification: last + 1 modulo 2^16, skipping 0. */
    public int next() {
        int id = (last + 1) & 0xFFFF;
        if (id == 0) {
            id = 1;
        }
        last = id;
        return id;
    }
}
