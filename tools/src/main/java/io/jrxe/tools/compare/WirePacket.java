package io.jrxe.tools.compare;

import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.HeaderFields;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.opcode.Opcode;

/**
 * What a comparison keeps of a RoCE packet, from jrxe's tap or from a capture file: where it goes (its destination
 * GID and QP tell which step and which direction), its opcode, PSN, ACK request bit, AETH and payload length.
 * Addresses, UDP ports and QP numbers differ between setups by construction and are not shown.
 */
record WirePacket(byte[] destGid, int destQpn, int opcode, boolean response, int psn, boolean ackRequest,
                  Integer syndrome, int msn, int payloadLength) {

    /** The packet's fields, or null for a frame that is not a well-formed RoCE packet. */
    static WirePacket of(DissectedPacket p) {
        if (!p.isRoce() || p.malformedReason() != null || p.opcode() == null) {
            return null;
        }
        HeaderFields.Aeth aeth = p.extension(HeaderFields.Aeth.class);
        byte[] dst = p.ip() == null ? new byte[16] : gidOf(p.ip().dst());
        return new WirePacket(dst, p.bth().destQpn(), p.bth().opcode(), p.opcode().isResponse(), p.bth().psn(),
                p.bth().ackRequest(), aeth == null ? null : aeth.syndrome(), aeth == null ? 0 : aeth.msn(),
                p.payload() == null ? 0 : p.payload().length);
    }

    /** True when the packet goes to QP {@code qpn} at {@code gid}. */
    boolean to(byte[] gid, int qpn) {
        return destQpn == qpn && java.util.Arrays.equals(destGid, gid);
    }

    /**
     * The packet as a step sees it: its direction between the step's QPs A and B, its opcode, its PSN as an offset
     * from the PSN its requester started at, the ACK request bit, the AETH and the payload length; e.g.
     * "A>B RDMA_WRITE_FIRST psn+0 len=1024" or "B>A ACKNOWLEDGE psn+3 ACK credits=invalid msn=1".
     */
    String describe(boolean toB, int psnA, int psnB) {
        boolean fromA = toB != response;
        int base = fromA ? psnA : psnB;
        StringBuilder sb = new StringBuilder(toB ? "A>B" : "B>A").append(' ').append(name())
                .append(" psn+").append((psn - base) & 0xFFFFFF);
        if (ackRequest) {
            sb.append(" A");
        }
        if (syndrome != null) {
            sb.append(' ').append(AethSyndrome.describe(syndrome)).append(" msn=").append(msn);
        }
        if (payloadLength > 0) {
            sb.append(" len=").append(payloadLength);
        }
        return sb.toString();
    }

    private static byte[] gidOf(byte[] ip) {
        if (ip.length == 16) {
            return ip.clone();
        }
        byte[] gid = new byte[16];
        gid[10] = (byte) 0xFF;
        gid[11] = (byte) 0xFF;
        System.arraycopy(ip, 0, gid, 12, 4);
        return gid;
    }

    /** The opcode's name without its transport, e.g. "SEND_ONLY". */
    String name() {
        Opcode op = Opcode.of(opcode);
        String n = op == null ? String.format("opcode 0x%02x", opcode) : op.displayName();
        int space = n.indexOf(' ');
        return space > 0 ? n.substring(space + 1) : n;
    }
}
