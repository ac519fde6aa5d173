package io.jrxe.wire.cm;

import io.jrxe.wire.header.Flyweight;

/**
 * The common MAD header (IBTA 13.4), 24 bytes at the start of every 256-byte management
 * datagram:
 * <pre>
 *  byte 0       base version (1)
 *  byte 1       management class (0x07 = communication management)
 *  byte 2       class version (2 for the CM)
 *  byte 3       R(7) method(6..0): R is set in responses
 *  bytes 4-5    status
 *  bytes 6-7    class specific
 *  bytes 8-15   transaction ID
 *  bytes 16-17  attribute ID ({@link CmAttribute} for the CM class)
 *  bytes 18-19  reserved
 *  bytes 20-23  attribute modifier
 * </pre>
 * General MADs (the CM's among them) travel as UD SEND ONLY packets to and from QP1, the GSI,
 * with Q_Key {@link #GSI_QKEY}.
 */
public final class MadHeaderFlyweight extends Flyweight<MadHeaderFlyweight> {
    public static final int LENGTH = 24;
    /** Every MAD on QP0 and QP1 is this long, whatever its class. */
    public static final int MAD_LENGTH = 256;

    public static final int BASE_VERSION_OFFSET = 0;
    public static final int MGMT_CLASS_OFFSET = 1;
    public static final int CLASS_VERSION_OFFSET = 2;
    public static final int METHOD_OFFSET = 3;
    public static final int STATUS_OFFSET = 4;
    public static final int CLASS_SPECIFIC_OFFSET = 6;
    public static final int TRANSACTION_ID_OFFSET = 8;
    public static final int ATTRIBUTE_ID_OFFSET = 16;
    public static final int RESERVED_OFFSET = 18;
    public static final int ATTRIBUTE_MODIFIER_OFFSET = 20;

    public static final int BASE_VERSION = 1;
    public static final int MGMT_CLASS_CM = 0x07;
    public static final int CM_CLASS_VERSION = 2;
    /** The method of every CM message, REQ to APR: each is a send, answered by another send. */
    public static final int METHOD_SEND = 0x03;
    public static final int METHOD_GET = 0x01;
    public static final int METHOD_SET = 0x02;
    /** The R bit of the method byte, set in a response (GetResp is 0x81). */
    public static final int METHOD_RESPONSE_BIT = 0x80;

    /** The General Services Interface queue pair, which sends and receives every GMP. */
    public static final int GSI_QPN = 1;
    /** The well-known Q_Key of QP1. */
    public static final int GSI_QKEY = 0x8001_0000;

    @Override
    public int length() {
        return LENGTH;
    }

    public int baseVersion() {
        return u8(BASE_VERSION_OFFSET);
    }

    public MadHeaderFlyweight baseVersion(int version) {
        u8(BASE_VERSION_OFFSET, version);
        return this;
    }

    public int managementClass() {
        return u8(MGMT_CLASS_OFFSET);
    }

    public MadHeaderFlyweight managementClass(int mgmtClass) {
        u8(MGMT_CLASS_OFFSET, mgmtClass);
        return this;
    }

    public int classVersion() {
        return u8(CLASS_VERSION_OFFSET);
    }

    public MadHeaderFlyweight classVersion(int version) {
        u8(CLASS_VERSION_OFFSET, version);
        return this;
    }

    /** The whole method byte, R bit included. */
    public int method() {
        return u8(METHOD_OFFSET);
    }

    public MadHeaderFlyweight method(int method) {
        u8(METHOD_OFFSET, method);
        return this;
    }

    public int status() {
        return u16(STATUS_OFFSET);
    }

    public MadHeaderFlyweight status(int status) {
        u16(STATUS_OFFSET, status);
        return this;
    }

    public int classSpecific() {
        return u16(CLASS_SPECIFIC_OFFSET);
    }

    public MadHeaderFlyweight classSpecific(int value) {
        u16(CLASS_SPECIFIC_OFFSET, value);
        return this;
    }

    /** Chosen by the requester; its answers carry it back (a CM reuses one per exchange). */
    public long transactionId() {
        return i64(TRANSACTION_ID_OFFSET);
    }

    public MadHeaderFlyweight transactionId(long tid) {
        i64(TRANSACTION_ID_OFFSET, tid);
        return this;
    }

    public int attributeId() {
        return u16(ATTRIBUTE_ID_OFFSET);
    }

    public MadHeaderFlyweight attributeId(int id) {
        u16(ATTRIBUTE_ID_OFFSET, id);
        return this;
    }

    public int reserved() {
        return u16(RESERVED_OFFSET);
    }

    public MadHeaderFlyweight reserved(int value) {
        u16(RESERVED_OFFSET, value);
        return this;
    }

    public int attributeModifier() {
        return i32(ATTRIBUTE_MODIFIER_OFFSET);
    }

    public MadHeaderFlyweight attributeModifier(int value) {
        i32(ATTRIBUTE_MODIFIER_OFFSET, value);
        return this;
    }

    /**
     * True when all 24 bytes are zero: no base version, class, method or transaction ID. Linux 7.2's rxe
     * answers its PerfMgmt Gets with such a header and the data in place (its process_mad clears the
     * answer and fills only the attribute).
     */
    public boolean isBlank() {
        return i64(0) == 0 && i64(8) == 0 && i64(16) == 0;
    }

    /** True for a MAD of the communication management class. */
    public boolean isCm() {
        return managementClass() == MGMT_CLASS_CM;
    }

    /**
     * Writes the header of a CM message as every CM sends it: base version 1, class CM, class
     * version 2, method Send, status, class-specific, reserved and attribute modifier zero.
     */
    public MadHeaderFlyweight setCm(CmAttribute attribute, long transactionId) {
        i32(0, BASE_VERSION << 24 | MGMT_CLASS_CM << 16 | CM_CLASS_VERSION << 8 | METHOD_SEND);
        i32(STATUS_OFFSET, 0);
        i64(TRANSACTION_ID_OFFSET, transactionId);
        i32(ATTRIBUTE_ID_OFFSET, attribute.id() << 16);
        i32(ATTRIBUTE_MODIFIER_OFFSET, 0);
        return this;
    }
}
