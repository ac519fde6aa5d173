package io.jrxe.wire.header;

/**
 * The AETH syndrome byte (IBTA 9.7.5.1): bit 7 reserved, bits 6..5 the type (00 ACK, 01 RNR NAK,
 * 10 reserved, 11 NAK), bits 4..0 the value: the credit count of an ACK, the RNR timer code of
 * an RNR NAK, or the NAK code.
 */
public final class AethSyndrome {
    public static final int TYPE_ACK = 0;
    public static final int TYPE_RNR_NAK = 1;
    public static final int TYPE_RESERVED = 2;
    public static final int TYPE_NAK = 3;

    /** Credit count 0x1F: the responder does not do end-to-end flow control (what rxe sends). */
    public static final int CREDITS_INVALID = 0x1F;

    private AethSyndrome() {
    }

    public static int type(int syndrome) {
        return (syndrome >>> 5) & 0x3;
    }

    public static int value(int syndrome) {
        return syndrome & 0x1F;
    }

    public static int ack(int creditCount) {
        return creditCount & 0x1F;
    }

    public static int rnrNak(int timerCode) {
        return TYPE_RNR_NAK << 5 | (timerCode & 0x1F);
    }

    public static int nak(NakCode code) {
        return TYPE_NAK << 5 | code.value();
    }

    public static boolean isAck(int syndrome) {
        return type(syndrome) == TYPE_ACK;
    }

    public static boolean isRnrNak(int syndrome) {
        return type(syndrome) == TYPE_RNR_NAK;
    }

    public static boolean isNak(int syndrome) {
        return type(syndrome) == TYPE_NAK;
    }

    /** The syndrome in words, e.g. "ACK credits=31", "RNR NAK timer=14 (1.28 ms)", "NAK remote access error". */
    public static String describe(int syndrome) {
        int value = value(syndrome);
        String reserved = (syndrome & 0x80) != 0 ? " (reserved bit set)" : "";
        return switch (type(syndrome)) {
            case TYPE_ACK -> (value == CREDITS_INVALID ? "ACK credits=invalid" : "ACK credits=" + value) + reserved;
            case TYPE_RNR_NAK -> "RNR NAK timer=" + value + " (" + RnrTimer.describe(value) + ")" + reserved;
            case TYPE_NAK -> {
                NakCode code = NakCode.of(value);
                yield (code == null ? "NAK reserved code " + value : "NAK " + code.description()) + reserved;
            }
            default -> "reserved syndrome 0x" + Integer.toHexString(syndrome);
        };
    }
}
