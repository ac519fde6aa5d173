package io.jrxe.tools.view;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The summary table: one row per endpoint of each connection, counting what that endpoint sent.
 *
 * @param messages      messages it started (requests, each retried one counted once)
 * @param dataBytes     payload bytes it sent, retransmissions left out (a READ's data counts for the responder)
 * @param undelivered   its packets that a receiver dropped or that were lost
 * @param durationNanos the connection's span in the capture, first packet to last
 */
record QpSummary(int connection, String transport, Endpoint endpoint, Endpoint peer, long packets, long messages,
                 long dataBytes, long retransmissions, long naks, long rnrNaks, long undelivered, long durationNanos) {

    static List<QpSummary> of(List<Connection> connections, LadderMarks marks) {
        List<QpSummary> rows = new ArrayList<>();
        for (Connection c : connections) {
            long duration = c.endNanos() - c.startNanos();
            for (int lane = 0; lane < 2; lane++) {
                long packets = 0;
                long bytes = 0;
                long retransmissions = 0;
                long naks = 0;
                long rnrNaks = 0;
                long undelivered = 0;
                for (int k = 0; k < c.packets.size(); k++) {
                    if (c.senders.get(k) != lane) {
                        continue;
                    }
                    ViewPacket v = c.packets.get(k);
                    int i = v.index;
                    packets++;
                    if (marks.has(i, LadderMarks.RETRANSMISSION)) {
                        retransmissions++;
                    } else {
                        bytes += LadderMarks.payloadOf(v);
                    }
                    naks += marks.has(i, LadderMarks.NAK) ? 1 : 0;
                    rnrNaks += marks.has(i, LadderMarks.RNR_NAK) ? 1 : 0;
                    undelivered += marks.has(i, LadderMarks.DROPPED | LadderMarks.LOST) ? 1 : 0;
                }
                long messages = 0;
                for (LadderMarks.Message m : marks.messages) {
                    if (m.connection() == c.id && m.lane() == lane && m.started()) {
                        messages++;
                    }
                }
                rows.add(new QpSummary(c.id, c.transport, c.lanes[lane], c.lanes[1 - lane], packets, messages, bytes,
                        retransmissions, naks, rnrNaks, undelivered, duration));
            }
        }
        return rows;
    }

    /** Data bytes over the connection's span, e.g. "812.3 Mbit/s"; "-" when the span is zero or nothing was sent. */
    String goodput() {
        if (durationNanos <= 0 || dataBytes == 0) {
            return "-";
        }
        double bitsPerSecond = dataBytes * 8e9 / durationNanos;
        String[] units = {"bit/s", "kbit/s", "Mbit/s", "Gbit/s"};
        int u = 0;
        while (u < units.length - 1 && bitsPerSecond >= 1000) {
            bitsPerSecond /= 1000;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", bitsPerSecond, units[u]);
    }
}
