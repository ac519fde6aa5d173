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
 * {@link Dissector}; copies of one packet folded into it ({@link CopyMatcher}). Either the first packets, up to a
 * cap, or stretches of frames ({@link #stretches}): a capture of any size is read in bounded memory.
 */
final class CaptureLoad {
    private CaptureLoad() {
    }

    /** The first {@code maxPackets} packets; reading stops there. */
    static LoadedCapture read(Path file, int maxPackets) {
        Stretch all = new Stretch(1, Long.MAX_VALUE, maxPackets);
        readInto(file, List.of(all));
        return all.loaded();
    }

    /**
     * The packets of each stretch of frames {@code [from, to]} (sorted, apart), each stretch a capture of its own:
     * frames outside them are read past without being dissected, and reading stops after the last.
     */
    static List<LoadedCapture> stretches(Path file, List<long[]> ranges) {
        List<Stretch> stretches = new ArrayList<>();
        for (long[] r : ranges) {
            stretches.add(new Stretch(r[0], r[1], Integer.MAX_VALUE));
        }
        readInto(file, stretches);
        return stretches.stream().map(Stretch::loaded).toList();
    }

    private static void readInto(Path file, List<Stretch> stretches) {
        Dissector dissector = new Dissector();
        int at = 0;
        String damage = null;
        // The annotations are opened once the reader has vouched for the file, and read in step with its frames.
        try (CaptureReader reader = new CaptureReader(file); PcapngAnnotations notes = new PcapngAnnotations(file)) {
            for (CapturedFrame frame = next(reader); frame != null; frame = next(reader)) {
                PcapngAnnotations.Annotation note = notes.next();
                while (at < stretches.size() && frame.frameNumber() > stretches.get(at).to) {
                    at++;
                }
                if (at == stretches.size()) {
                    break;
                }
                Stretch s = stretches.get(at);
                if (frame.frameNumber() < s.from) {
                    continue;
                }
                DissectedPacket p = dissector.dissect(frame.frameNumber(), frame.timestampNanos(), frame.data(),
                        frame.linkType());
                if (!s.take(p, frame.timestampNanos(), note)) {
                    break;
                }
            }
        } catch (DamagedCapture e) {
            damage = e.getMessage();
        }
        for (Stretch s : stretches) {
            s.damage = damage;
        }
    }

    /** The packets of frames {@code from..to}, at most {@code maxPackets} of them. */
    private static final class Stretch {
        final long from;
        final long to;
        final int maxPackets;
        final CopyMatcher copies = new CopyMatcher();
        final List<ViewPacket> packets = new ArrayList<>();
        long frames;
        long notRoce;
        long copyCount;
        boolean truncated;
        String damage;

        Stretch(long from, long to, int maxPackets) {
            this.from = from;
            this.to = to;
            this.maxPackets = maxPackets;
        }

        /** Takes one frame of the stretch; false once it is full (the frame not taken). */
        boolean take(DissectedPacket p, long nanos, PcapngAnnotations.Annotation note) {
            frames++;
            if (!p.isRoce() || p.ip() == null) {
                notRoce++;
                return true;
            }
            int iface = note == null ? -1 : note.interfaceId();
            String ifaceName = note == null ? null : note.interfaceName();
            String comment = note == null ? null : note.comment();
            if (copies.fold(p, nanos, iface, ifaceName, comment)) {
                copyCount++;
                return true;
            }
            if (packets.size() == maxPackets) {
                truncated = true;
                frames--;
                return false;
            }
            ViewPacket v = new ViewPacket(packets.size(), p, nanos, iface, ifaceName);
            if (comment != null && comment.startsWith(CopyMatcher.DROP_PREFIX)) {
                v.dropReason = comment.substring(CopyMatcher.DROP_PREFIX.length());
            } else if (comment != null) {
                v.addComment(comment);
            }
            copies.remember(v);
            packets.add(v);
            return true;
        }

        LoadedCapture loaded() {
            markLost(packets);
            return new LoadedCapture(packets, frames, notRoce, copyCount, truncated, maxPackets, damage);
        }
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
