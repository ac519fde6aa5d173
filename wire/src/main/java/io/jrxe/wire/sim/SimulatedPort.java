package io.jrxe.wire.sim;

import io.jrxe.wire.ecn.Ecn;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;
import io.jrxe.wire.port.AttachedPort;
import io.jrxe.wire.port.PacketTap;
import io.jrxe.wire.port.PeerAddress;
import io.jrxe.wire.header.BthFlyweight;

import java.nio.ByteBuffer;

/**
 * A device's port on the {@link SimulatedNetwork}. It plays the kernel's part: each datagram
 * gets an IP identification (incrementing, as Linux gives DF datagrams), the ICRC is computed
 * over the headers it would have, and on receive it is checked before the NIC sees the packet.
 */
public final class SimulatedPort extends AttachedPort {
    private final SimulatedNetwork network;
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final PacketInfo info = new PacketInfo();
    private int identification;
    /** The TOS byte of what the port sends: ECT(0) once ECN-capable, else Not-ECT. */
    private int sendTos = Ecn.NOT_ECT;
    private boolean closed;

    SimulatedPort(SimulatedNetwork network, PeerAddress local) {
        super(local);
        this.network = network;
    }

    @Override
    public void send(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (closed) {
            return;
        }
        int id = stampIcrc(packet, offset, length, to, srcPort);
        corruptAfterIcrc(packet, offset, length);
        byte[] datagram = new byte[length];
        packet.get(offset, datagram);
        tapOut(PacketTap.Direction.SENT, to, srcPort, id, packet, offset, length);
        network.carry(this, to, datagram, srcPort, id, sendTos);
    }

    /** Its identification is used up, as a packet lost on the wire uses up its own. */
    @Override
    public void loseOnSend(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (closed) {
            return;
        }
        int id = stampIcrc(packet, offset, length, to, srcPort);
        tapOut(PacketTap.Direction.DROPPED, to, srcPort, id, packet, offset, length);
    }

    /** Gives the packet the next identification and writes its ICRC for it; the identification. */
    private int stampIcrc(ByteBuffer packet, int offset, int length, PeerAddress to, int srcPort) {
        if (to.ipv6() != local.ipv6()) {
            throw new IllegalArgumentException("cannot send from " + local + " to " + to + ": IP versions differ");
        }
        int id = identification = (identification + 1) & 0xFFFF;
        IcrcCalculator.write(packet, offset + length - IcrcCalculator.LENGTH, icrc(local, to, id, srcPort, packet, offset, length));
        return id;
    }

    private void tapOut(PacketTap.Direction direction, PeerAddress to, int srcPort, int id,
                        ByteBuffer packet, int offset, int length) {
        if (tap != null) {
            tap.packet(direction, local, to, srcPort, PeerAddress.ROCE_PORT, id, packet, offset, length,
                    network.time().nanoTime(), takeSentComment());
        }
    }

    /**
     * Whether what the port sends says ECN-capable transport, ECT(0), so that a switch of the network's packet path
     * may mark it CE instead of dropping it; off, it is Not-ECT (as a UDP port's is). Set before use.
     */
    public void ecnCapable(boolean capable) {
        sendTos = capable ? Ecn.ECT_0 : Ecn.NOT_ECT;
    }

    private int icrc(PeerAddress src, PeerAddress dst, int id, int srcPort, ByteBuffer packet, int offset, int length) {
        if (src.ipv6()) {
            return icrc.ipv6(src.ipBytes(), dst.ipBytes(), srcPort, PeerAddress.ROCE_PORT, packet, offset, length);
        }
        return icrc.ipv4(src.ipv4(), dst.ipv4(), id, 0x4000, srcPort, PeerAddress.ROCE_PORT, packet, offset, length);
    }

    /** A filter changed the packet: its ICRC is made right again for the same headers. */
    void refreshIcrc(PeerAddress to, byte[] datagram, int srcPort, int id) {
        ByteBuffer b = ByteBuffer.wrap(datagram);
        IcrcCalculator.write(b, datagram.length - IcrcCalculator.LENGTH, icrc(local, to, id, srcPort, b, 0, datagram.length));
    }

    /** The port receives the group's datagrams from now on (at once: the simulation has no IGMP). */
    @Override
    public void joinGroup(PeerAddress group) throws io.jrxe.wire.port.MulticastJoinException {
        if (!group.multicast() || group.ipv6() != local.ipv6()) {
            throw new io.jrxe.wire.port.MulticastJoinException("the port at " + local + " cannot join " + group
                    + (group.multicast() ? ": another IP family" : ": not a multicast address"));
        }
        network.join(group, this);
    }

    @Override
    public void leaveGroup(PeerAddress group) {
        network.leave(group, this);
    }

    /** A datagram that was sent to {@code destination}: this port's address, or a group it joined. */
    void receive(PeerAddress source, PeerAddress destination, byte[] datagram, int srcPort, int id, int trafficClass) {
        if (closed || sink == null) {
            return;
        }
        ByteBuffer buffer = ByteBuffer.wrap(datagram);
        info.source = source;
        info.destination = destination;
        info.sourcePort = srcPort;
        info.identification = id;
        info.ttl = 64;
        info.trafficClass = trafficClass;
        info.flowLabel = 0;
        info.timestampNanos = network.time().nanoTime();
        if (datagram.length < BthFlyweight.LENGTH + IcrcCalculator.LENGTH) {
            sink.dropped(buffer, 0, datagram.length, info, DropReason.TOO_SHORT);
            return;
        }
        int expected = icrc(source, destination, id, srcPort, buffer, 0, datagram.length);
        if (IcrcCalculator.read(buffer, datagram.length - IcrcCalculator.LENGTH) != expected) {
            sink.dropped(buffer, 0, datagram.length, info, DropReason.BAD_ICRC);
            return;
        }
        if (tap != null) {
            tap.packet(PacketTap.Direction.RECEIVED, source, destination, srcPort, PeerAddress.ROCE_PORT, id,
                    buffer, 0, datagram.length, info.timestampNanos, null);
        }
        sink.packet(buffer, 0, datagram.length, info);
        sink.burstEnd();
    }

    @Override
    public void close() {
        closed = true;
        network.detach(this);
    }
}
