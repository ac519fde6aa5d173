package io.jrxe.rnic;

import io.jrxe.wire.port.AttachedPort;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.stats.CounterRegistry;
import io.jrxe.wire.stats.SingleWriterCounter;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** A stand-in port: keeps a copy of every packet sent, hands the test's packets to the NIC as from the peer. */
final class StandInPort extends AttachedPort {
    final List<byte[]> sent = new ArrayList<>();
    final SingleWriterCounter sentHere = new SingleWriterCounter();
    final PacketInfo info = new PacketInfo();
    private final PeerAddress peer;

    StandInPort(PeerAddress local, PeerAddress peer) {
        super(local);
        this.peer = peer;
    }

    @Override
    public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        byte[] copy = new byte[length];
        packet.get(offset, copy);
        sent.add(copy);
        sentHere.increment();
        String comment = takeSentComment();
        PacketTap t = tap;
        if (t != null) {
            t.packet(PacketTap.Direction.SENT, local, to, srcPort, PeerAddress.ROCE_PORT, 0, packet, offset, length, 0, comment);
        }
    }

    @Override
    public void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        String comment = takeSentComment();
        PacketTap t = tap;
        if (t != null) {
            t.packet(PacketTap.Direction.DROPPED, local, to, srcPort, PeerAddress.ROCE_PORT, 0, packet, offset, length, 0,
                    comment);
        }
    }

    @Override
    public void registerCounters(CounterRegistry registry) {
        registry.register("standin_port_sent", sentHere);
    }

    /** Delivers packets as one receive burst, with this IP traffic class (its low two bits are the ECN field). */
    void deliver(int trafficClass, byte[]... roce) {
        info.source = peer;
        info.destination = local;
        info.sourcePort = 50000;
        info.trafficClass = trafficClass;
        for (byte[] packet : roce) {
            sink.packet(ByteBuffer.wrap(packet), 0, packet.length, info);
        }
        sink.burstEnd();
    }

    void deliver(byte[] roce) {
        deliver(0, roce);
    }

    @Override
    public void close() {
    }
}
