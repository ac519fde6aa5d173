package io.jrxe.tools.analyze;

import io.jrxe.wire.psn.Psn;
import io.netty.util.collection.LongObjectHashMap;

import java.util.ArrayDeque;

/**
 * Recognises what a capture of several interfaces (jrxe's: one per port, every packet written as sent, as
 * received and as dropped) holds more than once. A packet's first record is where it was sent; its copy on
 * another interface is its arrival, and a copy with a "dropped: ..." comment is the receiver's drop. A
 * second arrival of one sending is a copy the network made; a packet that never arrived, though its
 * receiver's interface recorded the arrival of a packet sent after it, was lost on the way. A packet is
 * known by its PSN, QP, opcode, UDP source port, payload length and stored ICRC.
 * <p>
 * Only packets seen within {@link #HORIZON} of capture time (and at most {@link #LARGEST}) are remembered;
 * a packet older than that with no arrival is judged then.
 */
final class CopyFolder {
    static final String DROP_PREFIX = "dropped: ";
    private static final long HORIZON = 1_000_000_000L;
    private static final int LARGEST = 1 << 18;

    /** What one sending of a packet became. */
    private static final class Sending {
        long key;
        long frame;
        long time;
        int iface;
        int psn;
        String opcode;
        Flow flow;
        boolean arrived;
        int arrivedIface;
        long arrivedFrame;
        boolean judged;
    }

    /** What {@link #fold} decided for a frame. */
    enum Verdict { PACKET, ARRIVAL, DROP, NETWORK_COPY }

    private final LongObjectHashMap<Sending> sendings = new LongObjectHashMap<>();
    private final ArrayDeque<Sending> byAge = new ArrayDeque<>();
    private final ArrayDeque<Sending> spare = new ArrayDeque<>();
    private final Timeline timeline;
    /** The sending the last ARRIVAL, DROP or NETWORK_COPY was of. */
    private Sending matched;

    CopyFolder(Timeline timeline) {
        this.timeline = timeline;
    }

    /**
     * Decides what the frame of {@code p} on {@code flow} is: a packet to analyse, or the arrival, drop or
     * network copy of one already seen (then {@link #matchedFrame()} names it). A drop or a network copy is
     * reported in the sender's findings.
     */
    Verdict fold(RocePacket p, Flow flow) {
        expire(p.time);
        long key = key(p);
        Sending s = sendings.get(key);
        boolean drop = p.comment != null && p.comment.startsWith(DROP_PREFIX);
        if (s == null || s.iface == p.iface) {
            if (drop) {
                dropped(p, flow, p.frame, p.comment.substring(DROP_PREFIX.length()));
                return Verdict.DROP;
            }
            remember(key, p, flow);
            return Verdict.PACKET;
        }
        matched = s;
        if (drop) {
            s.arrived = true;
            s.arrivedIface = p.iface;
            dropped(p, flow, s.frame, p.comment.substring(DROP_PREFIX.length()));
            return Verdict.DROP;
        }
        if (!s.arrived) {
            s.arrived = true;
            s.arrivedIface = p.iface;
            s.arrivedFrame = p.frame;
            flow.arrivalIface = p.iface;
            flow.lastArrivedSentAt = Math.max(flow.lastArrivedSentAt, s.time);
            return Verdict.ARRIVAL;
        }
        flow.connection.findings(flow.side).add(new Finding(FindingKind.DUPLICATE, p.frame, p.time, p.psn, p.psn, 1,
                s.opcode + " PSN " + Psn.format(p.psn) + " (sent #" + s.frame + ") arrived twice (#" + s.arrivedFrame
                        + " and #" + p.frame + "): a copy made on the way", new long[] {s.frame, s.arrivedFrame}));
        return Verdict.NETWORK_COPY;
    }

    long matchedFrame() {
        return matched.frame;
    }

    private void dropped(RocePacket p, Flow flow, long sentFrame, String reason) {
        flow.connection.findings(flow.side).add(new Finding(FindingKind.DROPPED_BY_RECEIVER, p.frame, p.time, p.psn, p.psn,
                1, p.opcode.displayName() + " PSN " + Psn.format(p.psn) + (sentFrame != p.frame ? " (sent #" + sentFrame
                        + ")" : "") + " dropped by the receiver: " + reason, sentFrame != p.frame ? new long[] {sentFrame}
                        : new long[0]));
    }

    private void remember(long key, RocePacket p, Flow flow) {
        Sending s = spare.isEmpty() ? new Sending() : spare.removeFirst();
        s.key = key;
        s.frame = p.frame;
        s.time = p.time;
        s.iface = p.iface;
        s.psn = p.psn;
        s.opcode = p.opcode.displayName();
        s.flow = flow;
        s.arrived = false;
        s.judged = false;
        Sending before = sendings.put(key, s);
        if (before != null) {
            judge(before);
        }
        byAge.addLast(s);
    }

    private void expire(long now) {
        while (!byAge.isEmpty() && (now - byAge.peekFirst().time > HORIZON || byAge.size() > LARGEST)) {
            Sending s = byAge.removeFirst();
            if (sendings.get(s.key) == s) {
                sendings.remove(s.key);
            }
            judge(s);
            spare.addLast(s);
        }
    }

    /** At the end of the capture: every packet still waiting for its arrival is judged. */
    void end() {
        while (!byAge.isEmpty()) {
            judge(byAge.removeFirst());
        }
        sendings.clear();
    }

    /** A sending that never arrived, though a packet of its flow sent after it did: lost on the way. */
    private void judge(Sending s) {
        if (s.judged) {
            return;
        }
        s.judged = true;
        Flow f = s.flow;
        if (!s.arrived && f.arrivalIface >= 0 && f.arrivalIface != s.iface && f.lastArrivedSentAt > s.time) {
            f.connection.findings(f.side).add(new Finding(FindingKind.LOST_ON_THE_WAY, s.frame, s.time, s.psn, s.psn, 1,
                    s.opcode + " PSN " + Psn.format(s.psn) + " sent at " + timeline.at(s.time)
                            + " never arrived, though later packets to its receiver did: lost on the way", new long[0]));
        }
    }

    private static long key(RocePacket p) {
        long h = p.icrcStored * 0x9E3779B97F4A7C15L;
        h = (h ^ p.psn) * 31 + p.destQpn;
        h = h * 31 + p.opcodeCode;
        h = h * 31 + p.srcPort;
        return h * 31 + p.payloadLength;
    }
}
