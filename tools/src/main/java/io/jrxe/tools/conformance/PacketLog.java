package io.jrxe.tools.conformance;

import io.jrxe.wire.dissect.Dissector;
import io.jrxe.wire.dissect.PacketSummary;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.port.PeerAddress;

import java.io.PrintWriter;
import java.nio.ByteBuffer;

/**
 * With -v, every packet the tester sends and receives, one line each as `jrxe decode` prints it: the packet is
 * framed again with the IP and UDP headers it travelled with (the identification it was sent with, or the one its
 * ICRC solves for) and dissected. Without -v it prints nothing.
 */
final class PacketLog {
    private final PrintWriter out;
    private final RoceFramer framer = new RoceFramer();
    private final Dissector dissector = new Dissector();
    private long frame;

    /** @param out where the lines go, or null for none */
    PacketLog(PrintWriter out) {
        this.out = out;
    }

    void sent(PeerAddress from, PeerAddress to, int srcPort, int id, byte[] roce) {
        line("  >> ", from, to, srcPort, id, roce);
    }

    void received(PeerAddress from, PeerAddress to, int srcPort, int id, byte[] roce) {
        line("  << ", from, to, srcPort, id, roce);
    }

    private void line(String direction, PeerAddress from, PeerAddress to, int srcPort, int id, byte[] roce) {
        if (out == null) {
            return;
        }
        framer.addresses(from.ipBytes(), to.ipBytes()).ports(srcPort, PeerAddress.ROCE_PORT).identification(id)
                .flagsFragment(RoceFramer.FLAG_DONT_FRAGMENT);
        byte[] frameBytes = new byte[framer.headerLength() + roce.length];
        framer.frame(ByteBuffer.wrap(frameBytes), 0, ByteBuffer.wrap(roce), 0, roce.length, false);
        out.println(direction + PacketSummary.of(dissector.dissect(++frame, 0, frameBytes, LinkType.ETHERNET)).strip());
        out.flush();
    }
}
