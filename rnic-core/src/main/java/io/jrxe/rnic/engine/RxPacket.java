package io.jrxe.rnic.engine;

import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;
import io.jrxe.wire.port.PacketInfo;

import java.nio.ByteBuffer;

/**
 * A received packet, parsed once (rxe's {@code rxe_pkt_info}): its BTH fields, its opcode's entry
 * in the opcode table, where each extension header and the payload are, and what the port knew of
 * it. The receive dispatch fills it; every engine reads it and none parses the BTH again. One
 * object, reused for every packet; valid while the packet is being handled.
 */
final class RxPacket {
    private final BthFlyweight bth = new BthFlyweight();

    ByteBuffer buffer;
    /** Where the BTH starts in {@link #buffer}. */
    int offset;
    /** BTH to ICRC inclusive. */
    int length;
    PacketInfo info;

    /** The opcode's table entry (null when {@link #parse} refused the packet as an unknown opcode). */
    Opcode opcode;
    int opcodeValue;
    int psn;
    int destQpn;
    int pkey;
    boolean ackRequest;
    boolean solicited;
    int padCount;
    int transportVersion;
    int payloadOffset;
    int payloadLength;

    /**
     * Reads the BTH and checks the lengths the opcode implies; on null the packet is parsed, else
     * why it cannot be (the fields read until then are set, for the drop's trace).
     */
    DropReason parse(ByteBuffer buffer, int offset, int length, PacketInfo info) {
        this.buffer = buffer;
        this.offset = offset;
        this.length = length;
        this.info = info;
        BthFlyweight b = bth.wrap(buffer, offset);
        opcodeValue = b.opcode();
        psn = b.psn();
        destQpn = b.destQpn();
        pkey = b.pkey();
        ackRequest = b.ackRequest();
        solicited = b.solicitedEvent();
        padCount = b.padCount();
        transportVersion = b.transportVersion();
        opcode = Opcode.of(opcodeValue);
        if (opcode == null) {
            return DropReason.UNKNOWN_OPCODE;
        }
        if (transportVersion != 0) {
            // IBTA 9.2: TVer is 0; a packet of another transport version is not ours to read (rxe's hdr_check drops it).
            return DropReason.MALFORMED;
        }
        int payloadAndPad = length - opcode.headerLength() - IcrcCalculator.LENGTH;
        if (payloadAndPad < 0 || (!opcode.hasPayload() && payloadAndPad != 0) || padCount > payloadAndPad) {
            return DropReason.MALFORMED;
        }
        payloadOffset = offset + opcode.headerLength();
        payloadLength = payloadAndPad - padCount;
        return null;
    }

    /** Where an extension header of this packet's opcode starts in {@link #buffer}. */
    int at(ExtensionHeader header) {
        return offset + opcode.offsetOf(header);
    }
}
