package io.jrxe.wire.cm;

import java.util.List;

/**
 * SIDR_REP, service ID resolution reply (IBTA table 120): the QPN and Q_Key of the UD QP that
 * serves the service ID, or why there is none.
 */
public final class SidrRepFlyweight extends CmMessageFlyweight<SidrRepFlyweight> {
    public static final CmField REQUEST_ID = CmField.number(CmField.Kind.HEX, "request_id", "request ID", 0, 0, 32);
    public static final CmField STATUS = CmField.number(CmField.Kind.SIDR_STATUS, "status", "status", 4, 0, 8);
    public static final CmField ADDITIONAL_INFO_LENGTH =
            CmField.number(CmField.Kind.NUMBER, "additional_info_length", "additional info length", 5, 0, 8);
    public static final CmField RESERVED_6 = CmField.reserved(6, 0, 16);
    public static final CmField QPN = CmField.number(CmField.Kind.HEX, "qpn", "QPN", 8, 0, 24);
    public static final CmField RESERVED_11 = CmField.reserved(11, 0, 8);
    public static final CmField SERVICE_ID =
            CmField.number(CmField.Kind.SERVICE_ID, "service_id", "service ID", 12, 0, 64);
    public static final CmField QKEY = CmField.number(CmField.Kind.HEX, "qkey", "Q_Key", 20, 0, 32);
    public static final CmField CLASS_PORT_INFO =
            CmField.bytes(CmField.Kind.BYTES, "additional_info", "class port info", 24, 72);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 96, 136);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            REQUEST_ID, STATUS, ADDITIONAL_INFO_LENGTH, RESERVED_6, QPN, RESERVED_11, SERVICE_ID, QKEY,
            CLASS_PORT_INFO, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.SIDR_REP;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    public int requestId() {
        return (int) get(REQUEST_ID);
    }

    public SidrRepFlyweight requestId(int value) {
        return set(REQUEST_ID, value);
    }

    /** The {@link SidrStatus} code. */
    public int status() {
        return (int) get(STATUS);
    }

    public SidrRepFlyweight status(int value) {
        return set(STATUS, value);
    }

    public int additionalInfoLength() {
        return (int) get(ADDITIONAL_INFO_LENGTH);
    }

    public SidrRepFlyweight additionalInfoLength(int value) {
        return set(ADDITIONAL_INFO_LENGTH, value);
    }

    public int qpn() {
        return (int) get(QPN);
    }

    public SidrRepFlyweight qpn(int value) {
        return set(QPN, value);
    }

    public long serviceId() {
        return get(SERVICE_ID);
    }

    public SidrRepFlyweight serviceId(long value) {
        return set(SERVICE_ID, value);
    }

    public int qkey() {
        return (int) get(QKEY);
    }

    public SidrRepFlyweight qkey(int value) {
        return set(QKEY, value);
    }

    public SidrRepFlyweight getClassPortInfo(byte[] dst, int dstOffset) {
        return getBytes(CLASS_PORT_INFO, dst, dstOffset);
    }

    public SidrRepFlyweight putClassPortInfo(byte[] src, int srcOffset, int length) {
        return putBytes(CLASS_PORT_INFO, src, srcOffset, length);
    }
}
