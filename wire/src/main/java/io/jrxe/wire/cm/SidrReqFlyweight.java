package io.jrxe.wire.cm;

import java.util.List;

/**
 * SIDR_REQ, service ID resolution request (IBTA table 119): which UD QP serves this service ID?
 * For RDMA CM's UDP port space its private data starts with the IP CM header.
 */
public final class SidrReqFlyweight extends CmMessageFlyweight<SidrReqFlyweight> {
    public static final CmField REQUEST_ID = CmField.number(CmField.Kind.HEX, "request_id", "request ID", 0, 0, 32);
    public static final CmField PARTITION_KEY =
            CmField.number(CmField.Kind.HEX, "partition_key", "partition key", 4, 0, 16);
    public static final CmField RESERVED_6 = CmField.reserved(6, 0, 16);
    public static final CmField SERVICE_ID =
            CmField.number(CmField.Kind.SERVICE_ID, "service_id", "service ID", 8, 0, 64);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 16, 216);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(REQUEST_ID, PARTITION_KEY, RESERVED_6, SERVICE_ID, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.SIDR_REQ;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    public int requestId() {
        return (int) get(REQUEST_ID);
    }

    public SidrReqFlyweight requestId(int value) {
        return set(REQUEST_ID, value);
    }

    public int partitionKey() {
        return (int) get(PARTITION_KEY);
    }

    public SidrReqFlyweight partitionKey(int value) {
        return set(PARTITION_KEY, value);
    }

    public long serviceId() {
        return get(SERVICE_ID);
    }

    public SidrReqFlyweight serviceId(long value) {
        return set(SERVICE_ID, value);
    }
}
