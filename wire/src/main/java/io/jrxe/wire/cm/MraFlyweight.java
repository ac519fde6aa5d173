package io.jrxe.wire.cm;

import java.util.List;

/**
 * MRA, message receipt acknowledgement (IBTA table 107): "your REQ, REP or LAP arrived; the
 * answer will take up to the service timeout".
 */
public final class MraFlyweight extends ConnectedMessageFlyweight<MraFlyweight> {
    public static final CmField MESSAGE_MRAED =
            CmField.number(CmField.Kind.MESSAGE, "message_mraed", "message MRAed", 8, 0, 2);
    public static final CmField RESERVED_8_2 = CmField.reserved(8, 2, 6);
    public static final CmField SERVICE_TIMEOUT =
            CmField.number(CmField.Kind.TIMEOUT, "service_timeout", "service timeout", 9, 0, 5);
    public static final CmField RESERVED_9_5 = CmField.reserved(9, 5, 3);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 10, 222);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, REMOTE_COMM_ID, MESSAGE_MRAED, RESERVED_8_2, SERVICE_TIMEOUT, RESERVED_9_5, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.MRA;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    /** Which message this acknowledges: 0 REQ, 1 REP, 2 LAP. */
    public int messageMraed() {
        return (int) get(MESSAGE_MRAED);
    }

    public MraFlyweight messageMraed(int value) {
        return set(MESSAGE_MRAED, value);
    }

    public int serviceTimeout() {
        return (int) get(SERVICE_TIMEOUT);
    }

    public MraFlyweight serviceTimeout(int value) {
        return set(SERVICE_TIMEOUT, value);
    }
}
