package io.jrxe.wire.cm;

import java.util.List;

/**
 * DREP, disconnection reply (IBTA table 113).
 */
public final class DrepFlyweight extends ConnectedMessageFlyweight<DrepFlyweight> {
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 8, 224);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(LOCAL_COMM_ID, REMOTE_COMM_ID, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.DREP;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }
}
