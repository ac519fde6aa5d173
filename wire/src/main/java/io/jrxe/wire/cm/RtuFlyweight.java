package io.jrxe.wire.cm;

import java.util.List;

/**
 * RTU, ready to use (IBTA table 111): the active side took the REP and its QP is ready to send.
 */
public final class RtuFlyweight extends ConnectedMessageFlyweight<RtuFlyweight> {
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 8, 224);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(LOCAL_COMM_ID, REMOTE_COMM_ID, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.RTU;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }
}
