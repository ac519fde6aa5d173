package io.jrxe.tools.rcops;

import io.jrxe.tools.common.Gids;

import java.nio.charset.StandardCharsets;

/**
 * What one side of `jrxe rc-ops` tells the other over TCP before any RDMA: its QP number, first PSN, GID, the
 * address and rkey of its buffer and the path MTU it wants. One line of fixed length, so that a reader knows how
 * many bytes to wait for: {@code rcops1 QPN PSN GID ADDR RKEY MTU}, hex numbers, the GID as its 32 hex digits.
 */
public record RcOpsDest(int qpn, int psn, byte[] gid, long addr, int rkey, int mtu) {
    private static final String MAGIC = "rcops1";
    public static final int LENGTH = MAGIC.length() + 1 + 6 + 1 + 6 + 1 + 32 + 1 + 16 + 1 + 8 + 1 + 4 + 1;

    public byte[] encode() {
        String line = String.format("%s %06x %06x %s %016x %08x %04d%n", MAGIC, qpn, psn, Gids.wire(gid), addr, rkey, mtu);
        byte[] bytes = line.replace(System.lineSeparator(), "\n").getBytes(StandardCharsets.US_ASCII);
        if (bytes.length != LENGTH) {
            throw new IllegalStateException("rc-ops line of " + bytes.length + " bytes, not " + LENGTH);
        }
        return bytes;
    }

    /** Parses a peer's line; a line that is not one says what came instead (another tool on that port, ...). */
    public static RcOpsDest decode(byte[] bytes) {
        String line = new String(bytes, StandardCharsets.US_ASCII);
        String[] f = line.strip().split(" ");
        if (f.length != 7 || !f[0].equals(MAGIC)) {
            throw new IllegalArgumentException("the peer is not jrxe rc-ops (it sent \"" + printable(line) + "\")");
        }
        try {
            return new RcOpsDest(Integer.parseInt(f[1], 16), Integer.parseInt(f[2], 16), Gids.fromWire(f[3]),
                    Long.parseUnsignedLong(f[4], 16), (int) Long.parseLong(f[5], 16), Integer.parseInt(f[6]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("the peer's rc-ops line is malformed (\"" + printable(line) + "\"): "
                    + e.getMessage(), e);
        }
    }

    private static String printable(String s) {
        return s.strip().replaceAll("[^\\x20-\\x7e]", "?");
    }

    public String describe() {
        return String.format("QPN 0x%06x, PSN 0x%06x, GID %s, buffer 0x%x rkey 0x%x, MTU %d", qpn, psn, Gids.ntop(gid), addr,
                rkey, mtu);
    }
}
