package io.jrxe.wire.cm;

import java.util.List;

/**
 * REJ, the refusal of a REQ or REP (IBTA table 108): a {@link RejectReason}, up to 72 bytes of
 * additional reject information, and private data.
 */
public final class RejFlyweight extends ConnectedMessageFlyweight<RejFlyweight> {
    public static final CmField MESSAGE_REJECTED =
            CmField.number(CmField.Kind.MESSAGE, "message_rejected", "message rejected", 8, 0, 2);
    public static final CmField RESERVED_8_2 = CmField.reserved(8, 2, 6);
    public static final CmField REJECT_INFO_LENGTH =
            CmField.number(CmField.Kind.NUMBER, "reject_info_length", "reject info length", 9, 0, 7);
    public static final CmField RESERVED_9_7 = CmField.reserved(9, 7, 1);
    public static final CmField REASON = CmField.number(CmField.Kind.REJECT_REASON, "reason", "reason", 10, 0, 16);
    public static final CmField ADDITIONAL_REJECT_INFO =
            CmField.bytes(CmField.Kind.BYTES, "ari", "additional reject information", 12, 72);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 84, 148);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, REMOTE_COMM_ID, MESSAGE_REJECTED, RESERVED_8_2, REJECT_INFO_LENGTH, RESERVED_9_7, REASON,
            ADDITIONAL_REJECT_INFO, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REJ;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    /** Which message is refused: 0 REQ, 1 REP, 2 other. */
    public int messageRejected() {
        return (int) get(MESSAGE_REJECTED);
    }

    public RejFlyweight messageRejected(int value) {
        return set(MESSAGE_REJECTED, value);
    }

    /** How many bytes of the ARI mean something. */
    public int rejectInfoLength() {
        return (int) get(REJECT_INFO_LENGTH);
    }

    public RejFlyweight rejectInfoLength(int value) {
        return set(REJECT_INFO_LENGTH, value);
    }

    /** The {@link RejectReason} code. */
    public int reason() {
        return (int) get(REASON);
    }

    public RejFlyweight reason(int value) {
        return set(REASON, value);
    }

    public RejFlyweight getAdditionalRejectInfo(byte[] dst, int dstOffset) {
        return getBytes(ADDITIONAL_REJECT_INFO, dst, dstOffset);
    }

    public RejFlyweight putAdditionalRejectInfo(byte[] src, int srcOffset, int length) {
        return putBytes(ADDITIONAL_REJECT_INFO, src, srcOffset, length);
    }
}
