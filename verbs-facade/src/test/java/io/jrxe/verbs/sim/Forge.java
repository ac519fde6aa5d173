package io.jrxe.verbs.sim;

import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.sim.PacketFilter;

import java.nio.ByteBuffer;

/** Packets made by hand, to put on the pair's wire with SimPair.inject (which computes the ICRC). */
final class Forge {
    static final int SRC_PORT = 0xC123;

    private Forge() {
    }

    /** A packet of this opcode with its headers zeroed except the BTH, payloadLength bytes of 0x5A, room for the ICRC. */
    static byte[] packet(Opcode op, int destQpn, int psn, int payloadLength) {
        int pad = (4 - (payloadLength & 3)) & 3;
        byte[] b = new byte[op.headerLength() + payloadLength + pad + IcrcCalculator.LENGTH];
        ByteBuffer bb = ByteBuffer.wrap(b);
        new BthFlyweight().wrap(bb, 0).set(op.code(), false, pad, BthFlyweight.DEFAULT_PKEY, destQpn, false, psn);
        for (int i = 0; i < payloadLength; i++) {
            b[op.headerLength() + i] = 0x5A;
        }
        return b;
    }

    static byte[] ack(int destQpn, int psn, int syndrome) {
        byte[] b = packet(Opcode.RC_ACKNOWLEDGE, destQpn, psn, 0);
        new AethFlyweight().wrap(ByteBuffer.wrap(b), BthFlyweight.LENGTH).set(syndrome, 1);
        return b;
    }

    static byte[] readResponseOnly(int destQpn, int psn, int payloadLength) {
        byte[] b = packet(Opcode.RC_RDMA_READ_RESPONSE_ONLY, destQpn, psn, payloadLength);
        new AethFlyweight().wrap(ByteBuffer.wrap(b), Opcode.RC_RDMA_READ_RESPONSE_ONLY.offsetOf(ExtensionHeader.AETH))
                .set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 1);
        return b;
    }

    static byte[] atomicAck(int destQpn, int psn, long original) {
        Opcode op = Opcode.RC_ATOMIC_ACKNOWLEDGE;
        byte[] b = packet(op, destQpn, psn, 0);
        ByteBuffer bb = ByteBuffer.wrap(b);
        new AethFlyweight().wrap(bb, op.offsetOf(ExtensionHeader.AETH)).set(AethSyndrome.ack(AethSyndrome.CREDITS_INVALID), 1);
        new AtomicAckEthFlyweight().wrap(bb, op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH)).originalData(original);
        return b;
    }

    /** Puts a packet on the wire as if {@code from} had sent it to {@code to}. */
    /** Flips a bit of each packet's last byte before its ICRC and leaves the ICRC: every packet arrives damaged. */
    static final PacketFilter CORRUPTING = (from, to, roce) -> {
        roce[roce.length - IcrcCalculator.LENGTH - 1] ^= 1;
        return PacketFilter.Verdict.CORRUPTED;
    };

    static void inject(SimPair p, SimPair.Side from, SimPair.Side to, byte[] roce) {
        p.inject(from.address, to.address, roce, SRC_PORT);
    }
}
