package io.jrxe.wire.cm;

import java.util.List;

/**
 * APR, alternate path response (IBTA table 116): whether the LAP's path was loaded.
 */
public final class AprFlyweight extends ConnectedMessageFlyweight<AprFlyweight> {
    public static final CmField ADDITIONAL_INFO_LENGTH =
            CmField.number(CmField.Kind.NUMBER, "additional_info_length", "additional info length", 8, 0, 8);
    public static final CmField AP_STATUS = CmField.number(CmField.Kind.AP_STATUS, "ap_status", "AP status", 9, 0, 8);
    public static final CmField RESERVED_10 = CmField.reserved(10, 0, 16);
    public static final CmField ADDITIONAL_INFO =
            CmField.bytes(CmField.Kind.BYTES, "additional_info", "additional info", 12, 72);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 84, 148);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, REMOTE_COMM_ID, ADDITIONAL_INFO_LENGTH, AP_STATUS, RESERVED_10, ADDITIONAL_INFO,
            PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.APR;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    public int additionalInfoLength() {
        return (int) get(ADDITIONAL_INFO_LENGTH);
    }

    public AprFlyweight additionalInfoLength(int value) {
        return set(ADDITIONAL_INFO_LENGTH, value);
    }

    /** The {@link AlternatePathStatus} code. */
    public int apStatus() {
        return (int) get(AP_STATUS);
    }

    public AprFlyweight apStatus(int value) {
        return set(AP_STATUS, value);
    }

    public AprFlyweight getAdditionalInfo(byte[] dst, int dstOffset) {
        return getBytes(ADDITIONAL_INFO, dst, dstOffset);
    }

    public AprFlyweight putAdditionalInfo(byte[] src, int srcOffset, int length) {
        return putBytes(ADDITIONAL_INFO, src, srcOffset, length);
    }
}
