package io.jrxe.verbs;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * What one side of a connected QP pair tells the other out of band (ibv_rc_pingpong's and perftest's
 * exchange): its QP number, the first PSN it will send, and its GID. {@link QpConnect} takes a QP to
 * RTS towards it.
 *
 * @param qpn the peer QP's number
 * @param psn the first PSN the peer sends (this side's expected receive PSN)
 * @param gid the peer's 16-byte GID (a RoCE v2 GID holds its IP address)
 */
public record QpPeer(int qpn, int psn, byte[] gid) {
    /** Checks the ranges (24-bit QPN and PSN, a 16-byte GID) and keeps a copy of the GID. */
    public QpPeer {
        if (qpn < 0 || qpn > 0xFFFFFF) {
            throw new IllegalArgumentException("a QP number is 24 bits, not 0x" + Integer.toHexString(qpn));
        }
        if (psn < 0 || psn > 0xFFFFFF) {
            throw new IllegalArgumentException("a PSN is 24 bits, not 0x" + Integer.toHexString(psn));
        }
        if (gid == null || gid.length != 16) {
            throw new IllegalArgumentException("a GID is 16 bytes, not " + (gid == null ? "none" : gid.length));
        }
        gid = gid.clone();
    }

    /** A copy of the peer's GID. */
    @Override
    public byte[] gid() {
        return gid.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof QpPeer p && p.qpn == qpn && p.psn == psn && Arrays.equals(p.gid, gid);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * qpn + psn) + Arrays.hashCode(gid);
    }

    @Override
    public String toString() {
        return String.format("QPN 0x%06x PSN 0x%06x GID %s", qpn, psn, HexFormat.of().formatHex(gid));
    }
}
