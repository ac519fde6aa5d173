package io.jrxe.tools.analyze;

import io.jrxe.wire.cm.IpCmServiceId;
import io.jrxe.wire.cm.RejectReason;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.dissect.MadFields;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The connection management on QP1: each REQ's handshake followed through REP and RTU (or a REJ), with the
 * time each answer took, the messages sent again (a REQ or REP whose answer did not come in time), MRAs,
 * and each DREQ with its DREP. A handshake is known by the active side's address and local communication
 * ID; the passive side's messages name that ID as their remote one. CM traffic is rare, so each MAD is
 * taken apart by the full {@link Dissector}.
 */
final class CmHandshakes {
    private static final int LARGEST = 65_536;

    /** One REQ's handshake. */
    private static final class Handshake {
        final String active;
        final String passive;
        final long commId;
        final List<Long> reqFrames = new ArrayList<>();
        long reqTime;
        String service;
        long activeQpn;
        long passiveQpn = -1;
        long repFrame = -1;
        long repTime;
        int repSends;
        long rtuFrame = -1;
        long rtuTime;
        long mraFrame = -1;
        boolean rejected;

        Handshake(String active, String passive, long commId) {
            this.active = active;
            this.passive = passive;
            this.commId = commId;
        }
    }

    /** One DREQ and its DREP. */
    private static final class Disconnect {
        final String from;
        final long dreqFrame;
        final long dreqTime;
        int dreqSends = 1;
        long drepFrame = -1;
        long drepTime;

        Disconnect(String from, long dreqFrame, long dreqTime) {
            this.from = from;
            this.dreqFrame = dreqFrame;
            this.dreqTime = dreqTime;
        }
    }

    private final Dissector dissector = new Dissector();
    private final Findings findings;
    private final Map<String, Handshake> handshakes = new LinkedHashMap<>();
    private final Map<String, Disconnect> disconnects = new LinkedHashMap<>();
    private long messages;

    CmHandshakes(Findings findings) {
        this.findings = findings;
    }

    Findings findings() {
        return findings;
    }

    long messages() {
        return messages;
    }

    /** A UD packet to QP1: its MAD, when it is a CM message, moves a handshake on. */
    void mad(RocePacket p, byte[] frame, int linkType) {
        DissectedPacket d = dissector.dissect(p.frame, p.time, java.util.Arrays.copyOf(frame, p.capturedLength), linkType);
        MadFields mad = d.mad();
        if (mad == null || !mad.isCm() || mad.cmAttribute() == null) {
            return;
        }
        messages++;
        String src = p.srcText();
        String dst = p.dstText();
        switch (mad.cmAttribute()) {
            case REQ -> req(p, mad, src, dst);
            case MRA -> {
                Handshake h = handshakes.get(dst + "/" + number(mad, "remote_comm_id"));
                if (h != null && h.mraFrame < 0) {
                    h.mraFrame = p.frame;
                }
            }
            case REP -> rep(p, mad, dst);
            case RTU -> rtu(p, mad, src);
            case REJ -> rej(p, mad, dst);
            case DREQ -> dreq(p, mad, src);
            case DREP -> drep(p, mad, src, dst);
            default -> {
                // SIDR, LAP and APR carry no handshake followed here.
            }
        }
    }

    private void req(RocePacket p, MadFields mad, String src, String dst) {
        long commId = number(mad, "local_comm_id");
        String key = src + "/" + commId;
        Handshake h = handshakes.get(key);
        if (h == null) {
            if (handshakes.size() == LARGEST) {
                return;
            }
            h = new Handshake(src, dst, commId);
            h.reqTime = p.time;
            h.activeQpn = number(mad, "local_qpn");
            long service = number(mad, "service_id");
            h.service = IpCmServiceId.isIpCm(service) ? IpCmServiceId.describe(service) : String.format("0x%016x", service);
            handshakes.put(key, h);
        }
        h.reqFrames.add(p.frame);
    }

    private void rep(RocePacket p, MadFields mad, String dst) {
        Handshake h = handshakes.get(dst + "/" + number(mad, "remote_comm_id"));
        if (h == null) {
            return;
        }
        h.repSends++;
        if (h.repFrame < 0) {
            h.repFrame = p.frame;
            h.repTime = p.time;
            h.passiveQpn = number(mad, "local_qpn");
        }
    }

    private void rtu(RocePacket p, MadFields mad, String src) {
        Handshake h = handshakes.get(src + "/" + number(mad, "local_comm_id"));
        if (h == null || h.rtuFrame >= 0) {
            return;
        }
        h.rtuFrame = p.frame;
        h.rtuTime = p.time;
        findings.add(new Finding(FindingKind.CM_HANDSHAKE, h.reqFrames.getFirst(), h.reqTime, -1, -1, 3,
                "CM handshake " + h.active + " -> " + h.passive + " (service " + h.service + "): REQ #"
                        + h.reqFrames.getFirst() + " (QP " + qp(h.activeQpn) + "), REP #" + h.repFrame + " "
                        + Timeline.duration(h.repTime - h.reqTime) + " later (QP " + qp(h.passiveQpn) + "), RTU #"
                        + h.rtuFrame + " " + Timeline.duration(h.rtuTime - h.repTime) + " after that: connected",
                new long[] {h.repFrame, h.rtuFrame}));
        retries(h);
    }

    private void rej(RocePacket p, MadFields mad, String dst) {
        Handshake h = handshakes.get(dst + "/" + number(mad, "remote_comm_id"));
        int reason = (int) number(mad, "reason");
        String why = "reason " + reason + " (" + RejectReason.describe(reason) + ")";
        if (h == null) {
            findings.add(new Finding(FindingKind.CM_REJECT, p.frame, p.time, -1, -1, 1,
                    "REJ from " + p.srcText() + " to " + dst + ", " + why + ", for a REQ the capture does not hold",
                    new long[0]));
            return;
        }
        if (h.rejected) {
            return;
        }
        h.rejected = true;
        findings.add(new Finding(FindingKind.CM_REJECT, p.frame, p.time, -1, -1, 1,
                "REQ #" + h.reqFrames.getFirst() + " " + h.active + " -> " + h.passive + " (service " + h.service
                        + ") rejected by REJ #" + p.frame + " " + Timeline.duration(p.time - h.reqTime) + " later: " + why,
                new long[] {h.reqFrames.getFirst()}));
        retries(h);
    }

    private void retries(Handshake h) {
        if (h.reqFrames.size() > 1) {
            findings.add(new Finding(FindingKind.CM_RETRY, h.reqFrames.get(1), h.reqTime, -1, -1, h.reqFrames.size() - 1,
                    "REQ " + h.active + " -> " + h.passive + " sent " + h.reqFrames.size() + " times (#"
                            + String.join(", #", h.reqFrames.stream().map(String::valueOf).toList())
                            + "): no answer came within the CM response timeout", new long[] {h.reqFrames.getFirst()}));
        }
        if (h.repSends > 1) {
            findings.add(new Finding(FindingKind.CM_RETRY, h.repFrame, h.repTime, -1, -1, h.repSends - 1,
                    "REP " + h.passive + " -> " + h.active + " sent " + h.repSends + " times: the RTU did not come in time",
                    new long[] {h.repFrame}));
        }
    }

    private void dreq(RocePacket p, MadFields mad, String src) {
        String key = src + "/" + number(mad, "local_comm_id");
        Disconnect d = disconnects.get(key);
        if (d != null) {
            d.dreqSends++;
            return;
        }
        if (disconnects.size() < LARGEST) {
            disconnects.put(key, new Disconnect(src, p.frame, p.time));
        }
    }

    private void drep(RocePacket p, MadFields mad, String src, String dst) {
        Disconnect d = disconnects.get(dst + "/" + number(mad, "remote_comm_id"));
        if (d == null || d.drepFrame >= 0) {
            return;
        }
        d.drepFrame = p.frame;
        d.drepTime = p.time;
        findings.add(new Finding(FindingKind.CM_DISCONNECT, d.dreqFrame, d.dreqTime, -1, -1, 2,
                "DREQ #" + d.dreqFrame + " " + d.from + " -> " + src + (d.dreqSends > 1 ? " (sent " + d.dreqSends + " times)" : "")
                        + ", DREP #" + p.frame + " " + Timeline.duration(p.time - d.dreqTime) + " later: disconnected",
                new long[] {p.frame}));
    }

    /** The capture ended: handshakes and disconnections that did not finish are reported. */
    void end() {
        for (Handshake h : handshakes.values()) {
            if (h.rtuFrame >= 0 || h.rejected) {
                continue;
            }
            String state = h.repFrame < 0 ? "no REP or REJ answered it" + (h.mraFrame >= 0 ? " (an MRA #" + h.mraFrame
                    + " asked for more time)" : "") : "REP #" + h.repFrame + " came, no RTU";
            findings.add(new Finding(FindingKind.CM_INCOMPLETE, h.reqFrames.getFirst(), h.reqTime, -1, -1, 1,
                    "REQ #" + h.reqFrames.getFirst() + " " + h.active + " -> " + h.passive + " (service " + h.service
                            + "): " + state + " by the end of the capture", new long[0]));
            retries(h);
        }
        for (Disconnect d : disconnects.values()) {
            if (d.drepFrame < 0) {
                findings.add(new Finding(FindingKind.CM_INCOMPLETE, d.dreqFrame, d.dreqTime, -1, -1, 1,
                        "DREQ #" + d.dreqFrame + " from " + d.from + (d.dreqSends > 1 ? " (sent " + d.dreqSends + " times)" : "")
                                + ": no DREP by the end of the capture", new long[0]));
            }
        }
    }

    private static long number(MadFields mad, String field) {
        MadFields.CmValue v = mad.value(field);
        return v == null ? -1 : v.number();
    }

    private static String qp(long qpn) {
        return qpn < 0 ? "?" : String.format("0x%06x", qpn);
    }
}
