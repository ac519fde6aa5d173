package io.jrxe.rnic.engine;

import io.jrxe.rnic.device.Counter;
import io.jrxe.rnic.device.Counters;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.port.PacketPort;
import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;

/**
 * The engines' way out: one transmit buffer that a requester or responder fills (BTH first) and
 * sends, counted in sent_pkts. Packets are built one at a time on the NIC thread, so one buffer
 * serves every QP.
 */
final class Transmitter {
    /** The largest RoCE packet the NIC builds: a 4096-byte payload and every header. */
    private static final int BUFFER_BYTES = 4096 + 256;

    final ByteBuffer tx = ByteBuffer.allocateDirect(BUFFER_BYTES);
    final BthFlyweight bth = new BthFlyweight();
    private final PacketPort port;
    private final Counters counters;

    Transmitter(PacketPort port, Counters counters) {
        this.port = port;
        this.counters = counters;
    }

    /** Wraps the buffer's BTH for the next packet. */
    BthFlyweight bth() {
        return bth.wrap(tx, 0);
    }

    /** Sends tx[0, length) plus room for the ICRC to {@code to} from UDP source port {@code srcPort}. */
    void send(PeerAddress to, int srcPort, int lengthWithoutIcrc) {
        port.send(tx, 0, lengthWithoutIcrc + IcrcCalculator.LENGTH, to, srcPort);
        counters.increment(Counter.SENT_PKTS);
        counters.add(Counter.SENT_BYTES, Counter.ipPacketLength(lengthWithoutIcrc + IcrcCalculator.LENGTH, to.ipv6()));
        if (to.multicast()) {
            counters.increment(Counter.MCAST_SENT_PKTS);
        }
    }

    /** Whether a capture is on: only then is a packet's comment worth building. */
    boolean capturing() {
        return port.tap() != null;
    }

    /** The next packet sent carries this comment in the capture. */
    void annotateNext(String comment) {
        port.annotateNextSent(comment);
    }
}
