package io.jrxe.tools.baseline;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;

import java.nio.ByteBuffer;

/**
 * One thread doing what a UDP port does to each IPv4 packet it sends: the packet gets its next PSN, then the ICRC
 * for identification 0 (the kernel numbers the datagram, the receiver solves for the number) is computed with
 * {@link IcrcCalculator#ipv4} and written into it. One packet, so in cache, as a packet just built is.
 */
final class IcrcSendLoop extends TimedLoop {
    private final IcrcCalculator icrc = new IcrcCalculator();
    private final BthFlyweight bth = new BthFlyweight();
    private final ByteBuffer packet;
    private final int length;
    private int psn;

    IcrcSendLoop(int payloadBytes) {
        packet = SamplePackets.of(1, payloadBytes);
        length = SamplePackets.packetBytes(payloadBytes);
        bth.wrap(packet, 0);
    }

    @Override
    void repeat(int units) {
        long s = sink;
        for (int i = 0; i < units; i++) {
            psn = psn + 1 & 0xFF_FFFF;
            bth.psn(psn);
            int value = icrc.ipv4(SamplePackets.SOURCE_ADDRESS, SamplePackets.DESTINATION_ADDRESS, 0,
                    SamplePackets.FLAGS_FRAGMENT, SamplePackets.SOURCE_PORT, SamplePackets.DESTINATION_PORT, packet, 0, length);
            IcrcCalculator.write(packet, length - IcrcCalculator.LENGTH, value);
            s += value;
        }
        sink = s;
    }

    @Override
    int bytesPerUnit() {
        return length;
    }

    /** Whether the ICRC the last unit wrote is the one a fresh calculator finds for the packet. */
    boolean lastIcrcRight() {
        int expected = new IcrcCalculator().ipv4(SamplePackets.SOURCE_ADDRESS, SamplePackets.DESTINATION_ADDRESS, 0,
                SamplePackets.FLAGS_FRAGMENT, SamplePackets.SOURCE_PORT, SamplePackets.DESTINATION_PORT, packet, 0, length);
        return IcrcCalculator.read(packet, length - IcrcCalculator.LENGTH) == expected;
    }

    /** The packet as the last unit left it, its ICRC written. */
    ByteBuffer packet() {
        return packet.duplicate();
    }
}
