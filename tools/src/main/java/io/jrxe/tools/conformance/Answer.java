package io.jrxe.tools.conformance;

import io.jrxe.wire.header.AethFlyweight;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.AtomicAckEthFlyweight;
import io.jrxe.wire.header.BthFlyweight;
import io.jrxe.wire.icrc.IcrcCalculator;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A packet the target sent the tester, taken apart: opcode, destination QPN, PSN, the AETH's syndrome (-1 without
 * one), an atomic ACK's original value, the payload, whether its ICRC held for some IP identification, and what is
 * wrong with it when it cannot be read at all ({@code malformed}, else null).
 */
public record Answer(int code, Opcode opcode, int destQpn, int psn, int syndrome, long original, byte[] payload,
                     boolean icrcOk, String malformed) {

    public static Answer parse(byte[] roce, boolean icrcOk) {
        if (roce.length < BthFlyweight.LENGTH + IcrcCalculator.LENGTH) {
            return new Answer(-1, null, -1, -1, -1, 0, new byte[0], icrcOk, roce.length + " bytes: no room for a BTH");
        }
        ByteBuffer bb = ByteBuffer.wrap(roce);
        BthFlyweight bth = new BthFlyweight().wrap(bb, 0);
        Opcode op = Opcode.of(bth.opcode());
        int end = roce.length - IcrcCalculator.LENGTH;
        if (op == null || end < op.headerLength() || end - op.headerLength() < bth.padCount()) {
            return new Answer(bth.opcode(), op, bth.destQpn(), bth.psn(), -1, 0, new byte[0], icrcOk,
                    op == null ? String.format("unknown opcode 0x%02x", bth.opcode()) : op.displayName() + " too short");
        }
        int syndrome = op.has(ExtensionHeader.AETH)
                ? new AethFlyweight().wrap(bb, op.offsetOf(ExtensionHeader.AETH)).syndrome() : -1;
        long original = op.has(ExtensionHeader.ATOMIC_ACK_ETH)
                ? new AtomicAckEthFlyweight().wrap(bb, op.offsetOf(ExtensionHeader.ATOMIC_ACK_ETH)).originalData() : 0;
        byte[] payload = Arrays.copyOfRange(roce, op.headerLength(), end - bth.padCount());
        return new Answer(bth.opcode(), op, bth.destQpn(), bth.psn(), syndrome, original, payload, icrcOk, null);
    }

    /** As a row prints it, the PSN relative to the case's start: "ACK +1", "NAK invalid request +0", ... */
    public String describe(CaseContext c) {
        if (malformed != null) {
            return "malformed packet (" + malformed + ")";
        }
        String at = " " + c.relative(psn);
        String icrc = icrcOk ? "" : " with a bad ICRC";
        return switch (opcode) {
            case RC_ACKNOWLEDGE -> describeSyndrome() + at + icrc;
            case RC_ATOMIC_ACKNOWLEDGE -> String.format("ATOMIC ACK%s orig 0x%x%s", at, original, icrc);
            case RC_RDMA_READ_RESPONSE_FIRST, RC_RDMA_READ_RESPONSE_MIDDLE, RC_RDMA_READ_RESPONSE_LAST,
                 RC_RDMA_READ_RESPONSE_ONLY -> opcode.displayName().substring(3) + at + " " + payload.length + " bytes" + icrc;
            default -> opcode.displayName() + at + icrc;
        };
    }

    private String describeSyndrome() {
        return switch (AethSyndrome.type(syndrome)) {
            case AethSyndrome.TYPE_ACK -> "ACK";
            case AethSyndrome.TYPE_RNR_NAK -> "RNR NAK timer " + AethSyndrome.value(syndrome);
            default -> AethSyndrome.describe(syndrome);
        };
    }
}
