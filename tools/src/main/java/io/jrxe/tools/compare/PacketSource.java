package io.jrxe.tools.compare;

import io.jrxe.tools.UserError;
import io.jrxe.tools.common.TapDissector;
import io.jrxe.verbs.emulated.EmulatedDevice;
import io.jrxe.wire.capture.CaptureException;
import io.jrxe.wire.capture.CaptureReader;
import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.port.PacketTap;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Where a setup's packets come from: jrxe's own tap on its devices' ports, a capture file (the user's, or one
 * tcpdump writes during the run), or nowhere (then it says why). Read once, after the run.
 */
interface PacketSource extends AutoCloseable {
    /** The packets seen, in order; or none, and why. */
    record Seen(List<WirePacket> packets, String why) {
    }

    Seen collect();

    @Override
    default void close() {
    }

    /** A setup whose packets cannot be seen. */
    static PacketSource none(String why) {
        return () -> new Seen(null, why);
    }

    /** Every packet jrxe's devices send (each once: what one sends, the other receives). */
    static PacketSource tap(List<EmulatedDevice> devices) {
        ConcurrentLinkedQueue<WirePacket> sent = new ConcurrentLinkedQueue<>();
        for (EmulatedDevice d : devices) {
            TapDissector dissector = new TapDissector();
            d.nic().port().tap((direction, source, destination, sourcePort, destinationPort, identification, roce,
                                     offset, length, time, comment) -> {
                if (direction == PacketTap.Direction.SENT) {
                    WirePacket p = WirePacket.of(dissector.dissect(source, destination, sourcePort, destinationPort, roce,
                            offset, length, time));
                    if (p != null) {
                        sent.add(p);
                    }
                }
            });
        }
        return () -> new Seen(List.copyOf(sent), null);
    }

    /** The RoCE packets of a capture file, read when the run is over. */
    static PacketSource file(Path capture) {
        return () -> new Seen(read(capture), null);
    }

    static List<WirePacket> read(Path capture) {
        List<WirePacket> packets = new ArrayList<>();
        Dissector dissector = new Dissector();
        try {
            for (CapturedFrame f : CaptureReader.readAll(capture)) {
                WirePacket p = WirePacket.of(dissector.dissect(f.frameNumber(), f.timestampNanos(), f.data(), f.linkType()));
                if (p != null) {
                    packets.add(p);
                }
            }
        } catch (CaptureException e) {
            throw new UserError(e.getMessage(), e);
        }
        return packets;
    }
}
