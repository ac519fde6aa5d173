package io.jrxe.tools.baseline;

import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.PeerAddress;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * The packets the ICRC loops work on: RC SEND ONLY packets (BTH, payload, ICRC) one after another in a direct
 * buffer, as a UDP port sends them between two IPv4 addresses, each with its own PSN and a seeded payload. What
 * the ICRC costs depends on the bytes it covers, not on what they are.
 */
final class SamplePackets {
    static final int SOURCE_ADDRESS = 0x0A00_0001; // 10.0.0.1
    static final int DESTINATION_ADDRESS = 0x0A00_0002; // 10.0.0.2
    static final int SOURCE_PORT = 49152;
    static final int FLAGS_FRAGMENT = RoceFramer.FLAG_DONT_FRAGMENT;
    static final int DESTINATION_PORT = PeerAddress.ROCE_PORT;
    private static final int DESTINATION_QP = 0x11;

    private SamplePackets() {
    }

    /** The bytes of a packet with {@code payloadBytes} of payload. */
    static int packetBytes(int payloadBytes) {
        return BthFlyweight.LENGTH + payloadBytes + IcrcCalculator.LENGTH;
    }

    /** {@code count} packets of {@code payloadBytes} each, PSNs 0 to count - 1, their ICRCs not yet written. */
    static ByteBuffer of(int count, int payloadBytes) {
        int length = packetBytes(payloadBytes);
        ByteBuffer packets = ByteBuffer.allocateDirect(count * length);
        SplittableRandom random = new SplittableRandom(payloadBytes);
        BthFlyweight bth = new BthFlyweight();
        for (int k = 0; k < count; k++) {
            bth.wrap(packets, k * length).set(Opcode.RC_SEND_ONLY.code(), false, 0, BthFlyweight.DEFAULT_PKEY,
                    DESTINATION_QP, true, k);
            for (int i = BthFlyweight.LENGTH; i < length - IcrcCalculator.LENGTH; i++) {
                packets.put(k * length + i, (byte) random.nextInt(256));
            }
        }
        return packets;
    }
}
