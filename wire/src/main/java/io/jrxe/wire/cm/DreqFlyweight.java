package io.jrxe.wire.cm;

import java.util.List;

/**
 * DREQ, disconnection request (IBTA table 112).
 */
public final class DreqFlyweight extends ConnectedMessageFlyweight<DreqFlyweight> {
    public static final CmField REMOTE_QPN =
            CmField.number(CmField.Kind.HEX, "remote_qpn_eecn", "remote QPN/EECN", 8, 0, 24);
    public static final CmField RESERVED_11 = CmField.reserved(11, 0, 8);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 12, 220);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, REMOTE_COMM_ID, REMOTE_QPN, RESERVED_11, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.DREQ;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    /** The receiver's QPN (or EECN) of the connection to close. */
    public int remoteQpn() {
        return (int) get(REMOTE_QPN);
    }

    public DreqFlyweight remoteQpn(int value) {
        return set(REMOTE_QPN, value);
    }
}
