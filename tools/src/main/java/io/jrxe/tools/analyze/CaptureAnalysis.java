package io.jrxe.tools.analyze;

import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.CaptureStream;
import io.jrxe.wire.capture.PcapngAnnotations;
import io.jrxe.wire.cm.MadHeaderFlyweight;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.opcode.Transport;
import io.jrxe.wire.psn.Psn;

import java.nio.file.Path;
import java.util.List;

/**
 * Reads a capture once, frame by frame, and analyses it as it goes: each RoCEv2 packet is parsed in place
 * ({@link PacketParser}), jrxe's copies of a packet on other interfaces are folded into it
 * ({@link CopyFolder}), CM messages go to {@link CmHandshakes}, everything else to its connection
 * ({@link FlowTable}) and there to the requester whose request or response it is ({@link RequesterTrack}).
 * Memory is bounded by the number of connections, not of packets: the capture is never held whole.
 */
final class CaptureAnalysis {
    private final Path file;
    private final Timeline timeline = new Timeline();
    private final PacketParser parser = new PacketParser();
    private final RocePacket packet = new RocePacket();
    private final FlowTable flows;
    private final CopyFolder folder = new CopyFolder(timeline);
    private final CmHandshakes cm;
    private final Findings captureFindings;
    private boolean folding;
    private int linkType;

    long frames;
    long roce;
    long other;
    long malformed;
    long icrcBad;
    long icrcNotChecked;
    long copies;
    long firstTime;
    long lastTime;
    String damage;

    private CaptureAnalysis(Path file, int keep) {
        this.file = file;
        this.flows = new FlowTable(keep, timeline);
        this.cm = new CmHandshakes(new Findings(keep));
        this.captureFindings = new Findings(keep);
    }

    /** Analyses the capture at {@code file}, keeping at most {@code keep} findings of each kind per part (0: all). */
    static CaptureAnalysis of(Path file, int keep) {
        CaptureAnalysis a = new CaptureAnalysis(file, keep);
        a.read();
        return a;
    }

    private void read() {
        try (CaptureStream in = new CaptureStream(file); PcapngAnnotations notes = new PcapngAnnotations(file)) {
            linkType = in.linkType();
            while (next(in)) {
                PcapngAnnotations.Annotation note = notes.next();
                if (!folding && notes.interfaces() > 1) {
                    folding = true;
                    flows.arrivalsKnown();
                }
                frames++;
                long time = in.timestampNanos();
                if (frames == 1) {
                    timeline.start(time);
                    firstTime = time;
                }
                lastTime = Math.max(lastTime, time);
                RocePacket p = packet;
                PacketParser.Kind kind = parser.parse(in.data(), in.capturedLength(), in.originalLength(), linkType, p);
                p.frame = in.frameNumber();
                p.time = time;
                p.iface = note == null ? -1 : note.interfaceId();
                p.comment = note == null ? null : note.comment();
                switch (kind) {
                    case OTHER -> other++;
                    case MALFORMED -> {
                        malformed++;
                        captureFindings.add(new Finding(FindingKind.MALFORMED, p.frame, time, -1, -1, 1,
                                "malformed RoCEv2 packet: " + parser.reason(), new long[0]));
                    }
                    case ROCE -> {
                        roce++;
                        packet(p, in.data(), in.originalLength());
                    }
                }
            }
        }
        end();
    }

    private boolean next(CaptureStream in) {
        try {
            return in.next();
        } catch (CaptureException e) {
            damage = e.getMessage();
            return false;
        }
    }

    private void packet(RocePacket p, byte[] data, int wireLength) {
        if (p.icrc == RocePacket.IcrcState.BAD) {
            icrcBad++;
            captureFindings.add(new Finding(FindingKind.BAD_ICRC, p.frame, p.time, p.psn, p.psn, 1,
                    p.opcode.displayName() + " PSN " + Psn.format(p.psn) + " to QP " + String.format("0x%06x", p.destQpn)
                            + " from " + p.srcText() + ": ICRC " + String.format("0x%08x", p.icrcStored) + ", computed "
                            + String.format("0x%08x", p.icrcComputed) + "; a receiver drops it"
                            + (p.comment == null ? "" : " (" + p.comment + ")"), new long[0]));
            return;
        }
        if (p.icrc == RocePacket.IcrcState.NOT_CHECKED) {
            icrcNotChecked++;
        }
        if (p.opcode.transport() == Transport.UD && p.destQpn == MadHeaderFlyweight.GSI_QPN) {
            cm.mad(p, data, linkType);
            return;
        }
        Flow f = flows.flow(p);
        Connection c = f.connection;
        int side = f.side;
        // With each packet's arrival on record, a requester's requests are followed where they were sent and the
        // responses to them where they arrived: what the requester itself saw, and so what it acted on.
        boolean atArrival = folding && (p.opcode.isResponse() || p.opcode == Opcode.CNP);
        if (folding) {
            CopyFolder.Verdict v = folder.fold(p, f);
            if (v != CopyFolder.Verdict.PACKET) {
                copies++;
                if (v == CopyFolder.Verdict.ARRIVAL && atArrival) {
                    analyse(p, c, side);
                }
                return;
            }
        }
        c.sent(side, p.frame, p.time, wireLength);
        if (!atArrival) {
            analyse(p, c, side);
        }
    }

    private void analyse(RocePacket p, Connection c, int side) {
        boolean waited = c.waiting();
        if (p.ecn == 3) {
            if (c.ecnMarked[side]++ == 0) {
                c.firstEcnFrame[side] = p.frame;
                c.firstEcnTime[side] = p.time;
            }
        }
        if (p.becn) {
            c.becn[side]++;
        }
        RequesterTrack by;
        Opcode op = p.opcode;
        if (op == Opcode.CNP) {
            if (c.cnps[side]++ == 0) {
                c.firstCnpFrame[side] = p.frame;
                c.firstCnpTime[side] = p.time;
            }
            by = c.requesters[side];
        } else if (op.transport() == Transport.UD) {
            by = c.requesters[side];
            by.datagram(p);
        } else if (op.isRequest()) {
            by = c.requesters[side];
            by.request(p);
        } else {
            by = c.requesters[1 - side];
            by.response(p);
        }
        c.after(p.frame, p.time, waited, by);
    }

    private void end() {
        folder.end();
        for (Connection c : flows.connections()) {
            for (int side = 0; side < 2; side++) {
                c.requesters[side].end(c.packets[1 - side] > 0);
                congestion(c, side);
            }
        }
        cm.end();
    }

    private static void congestion(Connection c, int side) {
        if (c.cnps[side] > 0) {
            c.findings(side).add(new Finding(FindingKind.CNP, c.firstCnpFrame[side], c.firstCnpTime[side], -1, -1, c.cnps[side],
                    c.cnps[side] + " congestion notification packets (CNP) from " + c.endpoint(side) + ", the first #"
                            + c.firstCnpFrame[side] + ": it received packets marked congestion experienced and asks its"
                            + " peer to slow down", new long[0]));
        }
        if (c.ecnMarked[side] > 0) {
            c.findings(side).add(new Finding(FindingKind.ECN, c.firstEcnFrame[side], c.firstEcnTime[side], -1, -1, c.ecnMarked[side],
                    c.ecnMarked[side] + " packets from " + c.endpoint(side) + " marked congestion experienced (ECN CE) on"
                            + " the way, the first #" + c.firstEcnFrame[side], new long[0]));
        }
    }

    Path file() {
        return file;
    }

    int linkType() {
        return linkType;
    }

    Timeline timeline() {
        return timeline;
    }

    List<Connection> connections() {
        return flows.connections();
    }

    CmHandshakes cm() {
        return cm;
    }

    Findings captureFindings() {
        return captureFindings;
    }

    /** Whether anything abnormal (a warning or an error) was found, or the capture was damaged. */
    boolean abnormal() {
        if (damage != null || captureFindings.count(Severity.ERROR) + captureFindings.count(Severity.WARNING) > 0
                || cm.findings().count(Severity.ERROR) + cm.findings().count(Severity.WARNING) > 0) {
            return true;
        }
        for (Connection c : connections()) {
            for (int side = 0; side < 2; side++) {
                if (c.findings(side).count(Severity.ERROR) + c.findings(side).count(Severity.WARNING) > 0) {
                    return true;
                }
            }
        }
        return false;
    }
}
