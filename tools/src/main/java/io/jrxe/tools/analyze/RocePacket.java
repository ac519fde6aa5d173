package io.jrxe.tools.analyze;

import io.jrxe.wire.dissect.Formats;
import io.jrxe.wire.opcode.Opcode;

import java.util.Arrays;

/**
 * One captured RoCEv2 packet as the analysis reads it: the headers' values that sequence analysis needs,
 * filled in place by {@link PacketParser} for every frame (one instance serves the whole capture, so
 * reading a packet allocates nothing). Valid until the next frame is parsed.
 */
final class RocePacket {
    enum IcrcState { OK, BAD, NOT_CHECKED }

    long frame;
    /** Capture time in nanoseconds since the Unix epoch. */
    long time;
    /** The pcapng interface that captured it, -1 in a classic pcap. */
    int iface;
    /** The capture's comment on it (jrxe's "dropped: ..."), or null. */
    String comment;

    int ipVersion;
    /** Source and destination addresses: 4 bytes used for IPv4, 16 for IPv6. */
    final byte[] src = new byte[16];
    final byte[] dst = new byte[16];
    /** The IPv4 identification; -1 over IPv6. */
    int ipId;
    /** The two ECN bits of the IPv4 TOS or the IPv6 traffic class (3: congestion experienced). */
    int ecn;
    int srcPort;

    /** The table entry of the BTH opcode, or null when the code is unknown. */
    Opcode opcode;
    int opcodeCode;
    int psn;
    int destQpn;
    boolean ackRequest;
    boolean fecn;
    boolean becn;
    /** The AETH syndrome, or -1 when the packet has no AETH. */
    int syndrome;
    int msn;
    /** The RETH's DMA length, or -1 when the packet has no RETH. */
    long dmaLength;
    /** The AtomicAckETH's original data (valid for an ATOMIC ACKNOWLEDGE). */
    long atomicOriginal;
    /** The DETH's source QP, or -1 when the packet has no DETH. */
    int dethSrcQp;
    /** Payload bytes (pad and ICRC not counted), from the UDP length, so known even when the frame was cut short. */
    int payloadLength;
    int icrcStored;
    int icrcComputed;
    IcrcState icrc;
    /** Where the BTH starts in the frame's bytes, and how many bytes were captured. */
    int bthOffset;
    int capturedLength;

    int addressLength() {
        return ipVersion == 4 ? 4 : 16;
    }

    String srcText() {
        return Formats.ip(Arrays.copyOf(src, addressLength()));
    }

    String dstText() {
        return Formats.ip(Arrays.copyOf(dst, addressLength()));
    }

    boolean hasAeth() {
        return syndrome >= 0;
    }
}
