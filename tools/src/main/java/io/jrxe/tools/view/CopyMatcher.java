package io.jrxe.tools.view;

import io.jrxe.wire.dissect.DissectedPacket;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Recognises a packet the capture already holds: jrxe's capture records each packet on every
 * port that sees it (as sent, as received, as dropped), each port its own pcapng interface, so one
 * packet between two jrxe NICs appears two or three times. A copy on another interface is the
 * packet's arrival; a copy with a "dropped: ..." comment says the receiver dropped it. Copies are
 * told apart from retransmissions by where they were captured: a retransmission is captured again
 * by the sender's own interface.
 * <p>
 * A packet is known by its addresses, source port, opcode, QP, PSN, payload length and stored
 * ICRC (a CRC over all of its bytes, the same in every copy).
 */
final class CopyMatcher {
    static final String DROP_PREFIX = "dropped: ";

    private record Key(String src, String dst, int sport, int opcode, int qpn, int psn, int icrc, int payload) {
        static Key of(DissectedPacket p) {
            return new Key(java.util.Arrays.toString(p.ip().src()), java.util.Arrays.toString(p.ip().dst()),
                    p.udp().srcPort(), p.bth().opcode(), p.bth().destQpn(), p.bth().psn(), p.icrcStored(),
                    p.payload() == null ? -1 : p.payload().length);
        }
    }

    private final Map<Key, List<ViewPacket>> seen = new HashMap<>();

    /**
     * Folds a captured copy into the packet it copies and returns true, or returns false when it
     * is a packet of its own (then {@link #remember} it).
     */
    boolean fold(DissectedPacket p, long nanos, int iface, String ifaceName, String comment) {
        if (p.ip() == null || p.udp() == null || !p.isRoce()) {
            return false;
        }
        List<ViewPacket> same = seen.get(Key.of(p));
        if (same == null) {
            return false;
        }
        boolean drop = comment != null && comment.startsWith(DROP_PREFIX);
        if (drop) {
            // The most recent copy it can be: the one this interface received, or one sent elsewhere that never arrived.
            for (int i = same.size() - 1; i >= 0; i--) {
                ViewPacket v = same.get(i);
                if (v.dropReason == null && (v.arrivedIface == iface && v.arrived() || v.capturedIface == iface
                        || !v.arrived() && v.capturedIface != iface)) {
                    if (!v.arrived() && v.capturedIface != iface) {
                        arrive(v, nanos, iface, ifaceName);
                    }
                    v.dropReason = comment.substring(DROP_PREFIX.length());
                    return true;
                }
            }
            return false;
        }
        if (iface < 0) {
            return false;
        }
        // The latest send it can be: when a packet was lost and sent again, the copy that arrived is the later one.
        for (int i = same.size() - 1; i >= 0; i--) {
            ViewPacket v = same.get(i);
            if (!v.arrived() && v.capturedIface != iface) {
                arrive(v, nanos, iface, ifaceName);
                if (comment != null) {
                    v.addComment(comment);
                }
                return true;
            }
        }
        return false;
    }

    /** A packet of its own, which later copies may fold into. */
    void remember(ViewPacket v) {
        DissectedPacket p = v.packet;
        if (p.ip() != null && p.udp() != null && p.isRoce()) {
            seen.computeIfAbsent(Key.of(p), k -> new ArrayList<>(1)).add(v);
        }
    }

    private static void arrive(ViewPacket v, long nanos, int iface, String ifaceName) {
        v.arrivedNanos = nanos;
        v.arrivedIface = iface;
        v.arrivedOn = ifaceName;
    }
}
