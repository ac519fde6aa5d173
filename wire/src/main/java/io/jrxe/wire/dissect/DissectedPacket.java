package io.jrxe.wire.dissect;

import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.opcode.Opcode;

import java.util.List;

/**
 * One captured frame taken apart: its link, IP and UDP headers, and for a RoCEv2 packet the BTH,
 * the extension headers in wire order, the payload, the pad bytes and the ICRC (as stored and as
 * computed). A frame that is not RoCE has only what was found; a malformed one says why.
 *
 * @param opcode       the opcode's table entry, or null when the opcode is unknown
 * @param extensions   the extension headers (records of {@link HeaderFields}) in wire order
 * @param icrcComputed the ICRC computed over the frame; only meaningful when {@code icrcChecked}
 * @param mad          for a UD SEND ONLY to QP1 carrying a whole 256-byte MAD, the MAD decoded; else null
 */
public record DissectedPacket(
        long frame,
        long timestampNanos,
        int capturedLength,
        int linkType,
        FrameLayout.Kind kind,
        String malformedReason,
        HeaderFields.Ethernet ethernet,
        HeaderFields.Ip ip,
        HeaderFields.Udp udp,
        HeaderFields.Bth bth,
        Opcode opcode,
        List<Record> extensions,
        byte[] payload,
        byte[] pad,
        int icrcStored,
        int icrcComputed,
        boolean icrcChecked,
        byte[] trailer,
        MadFields mad) {

    /** True when a BTH was decoded (the packet may still be malformed past it). */
    public boolean isRoce() {
        return bth != null;
    }

    /** True for every packet sent to the RoCEv2 UDP port, well-formed or not. */
    public boolean isAddressedToRoce() {
        return bth != null || udp != null && udp.dstPort() == io.jrxe.wire.framing.RoceFramer.ROCE_V2_PORT;
    }

    /** True when the ICRC was checked and matched. */
    public boolean icrcOk() {
        return icrcChecked && icrcStored == icrcComputed;
    }

    /** The extension header of this type, or null when the packet has none. */
    public <T extends Record> T extension(Class<T> type) {
        if (extensions == null) {
            return null;
        }
        for (Record r : extensions) {
            if (type.isInstance(r)) {
                return type.cast(r);
            }
        }
        return null;
    }
}
