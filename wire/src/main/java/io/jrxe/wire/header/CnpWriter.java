package io.jrxe.wire.header;

import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;

/**
 * Writes the transport part of a RoCEv2 Congestion Notification Packet (IBTA RoCEv2 annex A17): a
 * BTH with opcode 0x81, the BECN bit set, the destination QP being the QP whose packets arrived
 * marked, PSN, pad count, SE, A and every reserved bit zero; then 16 reserved bytes of zero. The
 * ICRC follows, computed by whoever frames the packet. scapy's {@code cnp()} and Wireshark read
 * the same layout. Nothing is allocated: one instance per thread serves every CNP.
 */
public final class CnpWriter {
    /** BTH and the 16 reserved bytes, without the ICRC. */
    public static final int LENGTH = BthFlyweight.LENGTH + 16;

    private final BthFlyweight bth = new BthFlyweight();

    /** Writes the CNP for {@code destQpn} at {@code at}; returns the bytes written ({@link #LENGTH}). */
    public int write(ByteBuffer buffer, int at, int pkey, int destQpn) {
        bth.wrap(buffer, at).set(Opcode.CNP.code(), false, 0, pkey, destQpn, false, 0).becn(true);
        for (int i = BthFlyweight.LENGTH; i < LENGTH; i += 8) {
            buffer.putLong(at + i, 0L);
        }
        return LENGTH;
    }
}
