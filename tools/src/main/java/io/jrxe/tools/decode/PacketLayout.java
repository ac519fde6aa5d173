package io.jrxe.tools.decode;

import io.jrxe.wire.capture.CapturedFrame;
import io.jrxe.wire.dissect.DissectedPacket;
import io.jrxe.wire.dissect.HeaderFields;
import io.jrxe.wire.framing.FrameLayout;
import io.jrxe.wire.framing.LinkType;
import io.jrxe.wire.header.AethSyndrome;
import io.jrxe.wire.header.NakCode;
import io.jrxe.wire.header.RnrTimer;
import io.jrxe.wire.opcode.ExtensionHeader;
import io.jrxe.wire.opcode.Opcode;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * The layout view of a frame: each header where it sits (offset from the frame's first byte, length) with its bytes
 * in hex, the AETH syndrome taken apart bit by bit, and the ICRC both as the bytes on the wire and as the CRC-32
 * value. Wireshark shows the ICRC as its four bytes in wire order read as one big-endian number; the CRC-32 jrxe
 * computes is that number with its bytes the other way round, because the ICRC goes on the wire least significant
 * byte first (as rxe writes it). The layout names both so that neither reads as a wrong checksum.
 */
final class PacketLayout {
    /** Bytes of hex on one line. */
    private static final int PER_LINE = 16;
    /** The most payload bytes shown; the rest is counted. */
    private static final int PAYLOAD_SHOWN = 32;
    private static final HexFormat HEX = HexFormat.ofDelimiter(" ");
    private static final String ROW = "  %6d %5d  %-13s %s%n";
    private static final String MORE = "  %6s %5s  %-13s %s%n";

    private final FrameLayout layout = new FrameLayout();

    String of(CapturedFrame frame, DissectedPacket p) {
        byte[] data = frame.data();
        StringBuilder sb = new StringBuilder(1024);
        sb.append("Frame ").append(p.frame()).append(": ").append(data.length).append(" bytes, ")
                .append(LinkType.name(p.linkType())).append('\n');
        sb.append(String.format("  %6s %5s  %-13s %s%n", "offset", "bytes", "header", "hex"));
        FrameLayout.Kind kind = layout.parse(ByteBuffer.wrap(data), 0, data.length, p.linkType());
        if (kind == FrameLayout.Kind.OTHER || layout.ipVersion() == 0) {
            section(sb, 0, data.length, "not RoCEv2", data, data.length);
            return sb.toString();
        }
        int ip = layout.ipOffset();
        if (ip > 0) {
            section(sb, 0, ip, LinkType.name(p.linkType()), data, ip);
        }
        section(sb, ip, layout.ipHeaderLength(), "IPv" + layout.ipVersion(), data, layout.ipHeaderLength());
        if (p.udp() == null) {
            rest(sb, ip + layout.ipHeaderLength(), data, p);
            return sb.toString();
        }
        int udp = layout.udpOffset();
        section(sb, udp, 8, "UDP", data, 8);
        if (!p.isRoce()) {
            rest(sb, udp + 8, data, p);
            return sb.toString();
        }
        int bth = layout.bthOffset();
        section(sb, bth, 12, "BTH", data, 12);
        Opcode opcode = p.opcode();
        int at = bth + 12;
        if (opcode != null && p.malformedReason() == null) {
            for (int i = 0; i < opcode.headerCount(); i++) {
                ExtensionHeader h = opcode.header(i);
                at = bth + opcode.offsetOf(h);
                section(sb, at, h.length(), name(h), data, h.length());
                if (h == ExtensionHeader.AETH) {
                    sb.append(String.format(MORE, "", "", "", syndrome(p.extension(HeaderFields.Aeth.class).syndrome())));
                }
                at += h.length();
            }
        }
        int icrc = bth + layout.roceLength() - 4;
        int padLength = p.pad() == null ? 0 : p.pad().length;
        int payloadLength = icrc - at - padLength;
        if (payloadLength > 0) {
            section(sb, at, payloadLength, "payload", data, Math.min(payloadLength, PAYLOAD_SHOWN));
        }
        if (padLength > 0) {
            section(sb, icrc - padLength, padLength, "pad", data, padLength);
        }
        section(sb, icrc, 4, "ICRC", data, 4);
        sb.append(String.format(MORE, "", "", "", String.format(
                "Wireshark shows 0x%s (the bytes in wire order); the CRC-32 is 0x%08x, least significant byte first "
                        + "on the wire; %s", HEX.withDelimiter("").formatHex(data, icrc, icrc + 4), p.icrcStored(),
                p.icrcOk() ? "correct" : String.format("BAD, computed 0x%08x", p.icrcComputed()))));
        int end = ip + layout.ipPacketLength();
        if (end < data.length) {
            section(sb, end, data.length - end, "trailer", data, data.length - end);
        }
        if (p.malformedReason() != null) {
            sb.append("  MALFORMED ").append(p.malformedReason()).append('\n');
        }
        return sb.toString();
    }

    private static String name(ExtensionHeader h) {
        return switch (h) {
            case ATOMIC_ETH -> "AtomicETH";
            case ATOMIC_ACK_ETH -> "AtomicAckETH";
            case IMMDT -> "ImmDt";
            case CNP_RESERVED -> "CNP reserved";
            default -> h.name();
        };
    }

    /** What follows the last header understood, shown as it is. */
    private static void rest(StringBuilder sb, int from, byte[] data, DissectedPacket p) {
        if (from < data.length) {
            section(sb, from, data.length - from, "rest", data, Math.min(data.length - from, PAYLOAD_SHOWN));
        }
        if (p.malformedReason() != null) {
            sb.append("  MALFORMED ").append(p.malformedReason()).append('\n');
        }
    }

    /** One header's row: its offset, length and the first {@code shown} of its bytes, 16 to a line. */
    private static void section(StringBuilder sb, int offset, int length, String name, byte[] data, int shown) {
        int available = Math.max(0, Math.min(shown, data.length - offset));
        if (available == 0) {
            sb.append(String.format(ROW, offset, length, name, ""));
        }
        for (int line = 0; line < available; line += PER_LINE) {
            String hex = HEX.formatHex(data, offset + line, offset + Math.min(available, line + PER_LINE));
            boolean last = line + PER_LINE >= available;
            if (last && available < length) {
                hex += " ... (" + (length - available) + " more)";
            }
            sb.append(line == 0 ? String.format(ROW, offset, length, name, hex) : String.format(MORE, "", "", "", hex));
        }
    }

    /**
     * The AETH syndrome's eight bits (IBTA 9.7.5.1): bit 7 reserved, bits 6-5 the type (00 ACK, 01 RNR NAK, 11 NAK),
     * bits 4-0 by type the credit count (31: invalid, no credits advertised), the RNR timer code or the NAK code.
     */
    static String syndrome(int syndrome) {
        int type = AethSyndrome.type(syndrome);
        int value = AethSyndrome.value(syndrome);
        String bits = String.format("%8s", Integer.toBinaryString(syndrome)).replace(' ', '0');
        String typeName = switch (type) {
            case AethSyndrome.TYPE_ACK -> "ACK";
            case AethSyndrome.TYPE_RNR_NAK -> "RNR NAK";
            case AethSyndrome.TYPE_NAK -> "NAK";
            default -> "reserved";
        };
        String low = switch (type) {
            case AethSyndrome.TYPE_ACK -> "credit count " + value + (value == AethSyndrome.CREDITS_INVALID
                    ? " (invalid: no end-to-end credits advertised)" : "");
            case AethSyndrome.TYPE_RNR_NAK -> "RNR timer code " + value + " (" + RnrTimer.describe(value) + ")";
            case AethSyndrome.TYPE_NAK -> {
                NakCode code = NakCode.of(value);
                yield "NAK code " + value + " (" + (code == null ? "reserved" : code.description()) + ")";
            }
            default -> "value " + value;
        };
        return String.format("syndrome 0x%02x = %s %s %s: bit 7 reserved %c, bits 6-5 type %s %s, bits 4-0 %s", syndrome,
                bits.charAt(0), bits.substring(1, 3), bits.substring(3), bits.charAt(0), bits.substring(1, 3), typeName, low);
    }
}
