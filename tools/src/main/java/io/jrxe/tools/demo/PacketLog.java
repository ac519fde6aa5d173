package io.jrxe.tools.demo;

import io.jrxe.tools.common.TapDissector;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.PacketSummary;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Collects a one-line summary of every packet the demo's devices send, for the story of each step. */
final class PacketLog {
    /** A packet's line and when its port sent it (System.nanoTime). */
    record Logged(String line, long sentNanos) {
    }

    private final ConcurrentLinkedQueue<Logged> lines = new ConcurrentLinkedQueue<>();

    PacketTap tap(String deviceName, PeerAddress peerAddress, String peerName) {
        TapDissector dissector = new TapDissector();
        return (direction, source, destination, sourcePort, destinationPort, identification, roce, offset, length, time,
                comment) -> {
            if (direction == PacketTap.Direction.RECEIVED) {
                return;
            }
            DissectedPacket p = dissector.dissect(source, destination, sourcePort, destinationPort, roce, offset, length, 0);
            String summary = PacketSummary.of(p).strip();
            int cut = summary.indexOf("  ", summary.indexOf(" -> "));
            String what = cut > 0 ? summary.substring(cut).strip() : summary;
            what = what.replace("  icrc=ok", "");
            // A packet dropped on its way out (a --faults rule) was lost by this device; one dropped on its way in came
            // from the peer.
            boolean outgoing = destination.equals(peerAddress);
            String arrow = direction != PacketTap.Direction.DROPPED ? deviceName + " -> " + peerName
                    : outgoing ? deviceName + " x " + peerName : peerName + " x " + deviceName;
            lines.add(new Logged(arrow + "  " + what + (comment == null ? "" : "  (" + comment + ")"), time));
        };
    }

    /** The packets logged since the last call, in the order they were sent. */
    List<Logged> drain() {
        List<Logged> out = new ArrayList<>();
        Logged s;
        while ((s = lines.poll()) != null) {
            out.add(s);
        }
        return out;
    }
}
