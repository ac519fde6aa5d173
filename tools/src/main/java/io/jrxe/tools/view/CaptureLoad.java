package io.jrxe.tools.view;

import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.capture.PcapngAnnotations;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.Dissector;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a capture for the ladder: the frames through {@link CaptureReader} (any pcap or pcapng),
 * each packet's interface and comments through {@link PcapngAnnotations}, every frame through the
 * {@link Dissector}; copies of one packet folded into it ({@link CopyMatcher}). Reading stops once
 * {@code maxPackets} packets are kept, so a capture of any size is read in bounded time.
 */
final class CaptureLoad {
    private CaptureLoad() {
    }

    static LoadedCapture read(Path file, int maxPackets) {
        Dissector dissector = new Dissector();
        CopyMatcher copies = new CopyMatcher();
        List<ViewPacket> packets = new ArrayList<>();
        long frames = 0;
        long notRoce = 0;
        long copyCount = 0;
        boolean truncated = false;
        String damage = null;
        // The annotations are opened once the reader has vouched for the file, and read in step with its frames.
        try (CaptureReader reader = new CaptureReader(file); PcapngAnnotations notes = new PcapngAnnotations(file)) {
            for (CapturedFrame frame = next(reader); frame != null; frame = next(reader)) {
                PcapngAnnotations.Annotation note = notes.next();
                frames++;
                DissectedPacket p = dissector.dissect(frame.frameNumber(), frame.timestampNanos(), frame.data(),
                        frame.linkType());
                if (!p.isRoce() || p.ip() == null) {
                    notRoce++;
                    continue;
                }
                int iface = note == null ? -1 : note.interfaceId();
                String ifaceName = note == null ? null : note.interfaceName();
                String comment = note == null ? null : note.comment();
                if (copies.fold(p, frame.timestampNanos(), iface, ifaceName, comment)) {
                    copyCount++;
                    continue;
                }
                if (packets.size() == maxPackets) {
                    truncated = true;
                    frames--;
                    break;
                }
                ViewPacket v = new ViewPacket(packets.size(), p, frame.timestampNanos(), iface, ifaceName);
                if (comment != null && comment.startsWith(CopyMatcher.DROP_PREFIX)) {
                    v.dropReason = comment.substring(CopyMatcher.DROP_PREFIX.length());
                } else if (comment != null) {
                    v.addComment(comment);
                }
                copies.remember(v);
                packets.add(v);
            }
        } catch (DamagedCapture e) {
            damage = e.getMessage();
        }
        markLost(packets);
        return new LoadedCapture(packets, frames, notRoce, copyCount, truncated, maxPackets, damage);
    }

    /** A capture that went wrong after it opened: what was read before the damage is still drawn. */
    private static final class DamagedCapture extends RuntimeException {
        DamagedCapture(String message) {
            super(message, null, false, false);
        }
    }

    private static CapturedFrame next(CaptureReader reader) {
        try {
            return reader.next();
        } catch (CaptureException e) {
            throw new DamagedCapture(e.getMessage());
        }
    }

    /**
     * A packet captured by its sender that never arrived, though the capture records arrivals at its
     * destination (on another interface) and a later packet to that destination did arrive: lost on the way.
     */
    private static void markLost(List<ViewPacket> packets) {
        Map<String, long[]> lastArrival = new HashMap<>();
        for (ViewPacket v : packets) {
            if (v.arrived()) {
                lastArrival.merge(Arrays.toString(v.packet.ip().dst()), new long[] {v.sentNanos, v.arrivedIface},
                        (a, b) -> a[0] >= b[0] ? a : b);
            }
        }
        for (ViewPacket v : packets) {
            long[] last = lastArrival.get(Arrays.toString(v.packet.ip().dst()));
            v.lost = !v.arrived() && v.dropReason == null && v.capturedIface >= 0 && last != null
                    && last[1] != v.capturedIface && last[0] > v.sentNanos;
        }
    }
}
