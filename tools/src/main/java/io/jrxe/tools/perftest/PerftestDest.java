package io.jrxe.tools.perftest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What perftest's two sides tell each other about a QP in each handshake (its struct pingpong_dest): LID,
 * outstanding reads, QPN, PSN, R_Key, the virtual address to write to or read from, and the SRQ number, as
 * text {@code %04x:%04x:%06x:%06x:%08x:%016llx:%08x} (59 bytes with the NUL). When the QPs use a GID (always
 * on RoCE), the GID's 16 bytes go between the address and the SRQ number as {@code %02x:} each, and the SRQ
 * number ends with ':' too (108 bytes).
 */
public record PerftestDest(int lid, int outReads, int qpn, int psn, int rkey, long vaddr, byte[] gid, int srqn) {
    public static final int MESSAGE_SIZE = 59;
    public static final int MESSAGE_SIZE_GID = 108;

    public PerftestDest {
        if (gid != null && gid.length != 16) {
            throw new IllegalArgumentException("a GID has 16 bytes");
        }
        gid = gid == null ? null : gid.clone();
    }

    @Override
    public byte[] gid() {
        return gid == null ? null : gid.clone();
    }

    /** The message, in the GID form when there is a GID. */
    public byte[] toWire() {
        StringBuilder sb = new StringBuilder(MESSAGE_SIZE_GID);
        sb.append(String.format("%04x:%04x:%06x:%06x:%08x:%016x:", lid, outReads, qpn, psn, rkey, vaddr));
        if (gid == null) {
            sb.append(String.format("%08x", srqn));
        } else {
            for (byte b : gid) {
                sb.append(String.format("%02x:", b & 0xFF));
            }
            sb.append(String.format("%08x:", srqn));
        }
        int size = gid == null ? MESSAGE_SIZE : MESSAGE_SIZE_GID;
        if (sb.length() != size - 1) {
            throw new IllegalStateException("a field is too wide for perftest's message: " + sb);
        }
        return Arrays.copyOf(sb.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    /** Reads a peer's message of the form the handshake expects (with or without the GID). */
    public static PerftestDest parse(byte[] message, boolean withGid) {
        int end = 0;
        while (end < message.length && message[end] != 0) {
            end++;
        }
        String text = new String(message, 0, end, StandardCharsets.US_ASCII);
        String[] f = text.split(":", -1);
        int fields = withGid ? 23 : 7;
        // The GID form ends with ':' (an empty last field).
        if (f.length < fields || f.length > fields + 1 || (f.length == fields + 1 && !f[fields].isEmpty())) {
            throw new IllegalArgumentException("not a perftest " + (withGid ? "GID " : "") + "key message: \"" + text + "\"");
        }
        try {
            byte[] gid = null;
            if (withGid) {
                gid = new byte[16];
                for (int i = 0; i < 16; i++) {
                    gid[i] = (byte) Integer.parseInt(f[6 + i], 16);
                }
            }
            return new PerftestDest(Integer.parseUnsignedInt(f[0], 16), Integer.parseUnsignedInt(f[1], 16),
                    Integer.parseUnsignedInt(f[2], 16), Integer.parseUnsignedInt(f[3], 16), Integer.parseUnsignedInt(f[4], 16),
                    Long.parseUnsignedLong(f[5], 16), gid, Integer.parseUnsignedInt(f[withGid ? 22 : 6], 16));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a perftest key message: \"" + text + "\": " + e.getMessage(), e);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PerftestDest d && d.lid == lid && d.outReads == outReads && d.qpn == qpn && d.psn == psn
                && d.rkey == rkey && d.vaddr == vaddr && Arrays.equals(d.gid, gid) && d.srqn == srqn;
    }

    @Override
    public int hashCode() {
        return (((qpn * 31 + psn) * 31 + rkey) * 31 + Long.hashCode(vaddr)) * 31 + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return String.format("lid %d out_reads %d qpn 0x%06x psn 0x%06x rkey 0x%08x vaddr 0x%016x gid %s srqn %d", lid, outReads,
                qpn, psn, rkey, vaddr, gid == null ? "-" : HexFormat.of().formatHex(gid), srqn);
    }
}
