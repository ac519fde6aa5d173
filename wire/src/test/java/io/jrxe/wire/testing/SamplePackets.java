package io.jrxe.wire.testing;

import io.jrxe.wire.framing.RoceFramer;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.Opcode;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.util.Random;

/**
 * Builds RoCEv2 frames for tests with jrxe's own encoders: a BTH, extension headers filled with
 * random bytes, a payload, pad bytes to a multiple of 4, and the ICRC, framed in Ethernet, IP
 * and UDP like rxe's.
 */
public final class SamplePackets {
    private SamplePackets() {
    }

    /** A RoCE packet (UDP payload) of this opcode with random header fields and payloadLength random bytes. */
    public static byte[] roce(Opcode opcode, int payloadLength, Random random) {
        int payload = opcode.hasPayload() ? payloadLength : 0;
        int pad = (4 - payload % 4) % 4;
        byte[] packet = new byte[opcode.headerLength() + payload + pad + IcrcCalculator.LENGTH];
        random.nextBytes(packet);
        ByteBuffer b = ByteBuffer.wrap(packet);
        new BthFlyweight().wrap(b, 0).set(opcode.code(), random.nextBoolean(), pad, 0xFFFF,
                random.nextInt(1 << 24), random.nextBoolean(), random.nextInt(1 << 24));
        for (int i = packet.length - IcrcCalculator.LENGTH - pad; i < packet.length - IcrcCalculator.LENGTH; i++) {
            packet[i] = 0;
        }
        return packet;
    }

    /** Frames a RoCE packet between two addresses (IPv4 or IPv6), computing its ICRC. */
    public static byte[] frame(byte[] roce, String src, String dst, int srcPort, int identification) {
        return frame(roce, src, dst, srcPort, identification, 0);
    }

    /** As {@link #frame(byte[], String, String, int, int)}, with this IP TOS byte or traffic class (DSCP and ECN). */
    public static byte[] frame(byte[] roce, String src, String dst, int srcPort, int identification, int tos) {
        RoceFramer framer = new RoceFramer().addresses(address(src), address(dst))
                .ports(srcPort, RoceFramer.ROCE_V2_PORT).identification(identification).tos(tos);
        byte[] frame = new byte[framer.headerLength() + roce.length];
        framer.frame(ByteBuffer.wrap(frame), 0, ByteBuffer.wrap(roce), 0, roce.length, true);
        return frame;
    }

    private static InetAddress address(String literal) {
        try {
            return InetAddress.getByName(literal);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }
}
