package io.jrxe.tools.pingpong;

import io.jrxe.tools.common.Gids;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What the rdma-core pingpong examples tell each other over TCP: LID, QPN, PSN and GID, sent as the text
 * {@code %04x:%06x:%06x:%s} (the GID as 32 hex digits) in a 52-byte message that ends in a NUL.
 */
public record PingpongDest(int lid, int qpn, int psn, byte[] gid) {
    /** The message's size: the 51 characters of "0000:000000:000000:" and 32 GID digits, and the NUL. */
    public static final int MESSAGE_SIZE = 52;
    /** What the client sends last, with its NUL: 5 bytes. */
    public static final byte[] DONE = {'d', 'o', 'n', 'e', 0};

    public PingpongDest {
        if (gid == null || gid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes");
        }
        gid = gid.clone();
    }

    @Override
    public byte[] gid() {
        return gid.clone();
    }

    /** The 52 bytes on the wire. */
    public byte[] toWire() {
        String text = String.format("%04x:%06x:%06x:%s", lid, qpn, psn, Gids.wire(gid));
        byte[] b = Arrays.copyOf(text.getBytes(StandardCharsets.US_ASCII), MESSAGE_SIZE);
        if (text.length() != MESSAGE_SIZE - 1) {
            throw new IllegalStateException("LID, QPN or PSN too wide for the message: " + text);
        }
        return b;
    }

    /** Reads a peer's message: hex fields separated by ':', then the NUL (trailing bytes after it are ignored). */
    public static PingpongDest parse(byte[] message) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII);
        String[] f = text.split(":", -1);
        if (f.length != 4) {
            throw new IllegalArgumentException("not a pingpong address message (LID:QPN:PSN:GID): \"" + text + "\"");
        }
        try {
            return new PingpongDest(Integer.parseUnsignedInt(f[0], 16), Integer.parseUnsignedInt(f[1], 16),
                    Integer.parseUnsignedInt(f[2], 16), Gids.fromWire(f[3]));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a pingpong address message (LID:QPN:PSN:GID): \"" + text + "\": "
                    + e.getMessage(), e);
        }
    }

    /** "LID 0x0000, QPN 0x000011, PSN 0x4b1d2c" with the separator before the GID that the caller's tool uses. */
    public String describe(String gidSeparator) {
        return String.format("LID 0x%04x, QPN 0x%06x, PSN 0x%06x%s GID %s", lid, qpn, psn, gidSeparator, Gids.ntop(gid));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PingpongDest d && d.lid == lid && d.qpn == qpn && d.psn == psn && Arrays.equals(d.gid, gid);
    }

    @Override
    public int hashCode() {
        return ((lid * 31 + qpn) * 31 + psn) * 31 + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return describe(",");
    }
}
