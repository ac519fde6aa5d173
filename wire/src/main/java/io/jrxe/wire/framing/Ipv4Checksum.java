package io.jrxe.wire.framing;

import java.nio.ByteBuffer;

/** The IPv4 header checksum (RFC 791): the ones' complement of the ones' complement sum of the header's 16-bit words. */
public final class Ipv4Checksum {
    private Ipv4Checksum() {
    }

    /** Checksum of the header at {@code at}, computed as if its checksum field were zero. */
    public static int compute(ByteBuffer buffer, int at, int headerLength) {
        int sum = 0;
        for (int i = 0; i < headerLength; i += 2) {
            if (i != 10) {
                sum += buffer.getShort(at + i) & 0xFFFF;
            }
        }
        while ((sum >>> 16) != 0) {
            sum = (sum & 0xFFFF) + (sum >>> 16);
        }
        return ~sum & 0xFFFF;
    }
}
