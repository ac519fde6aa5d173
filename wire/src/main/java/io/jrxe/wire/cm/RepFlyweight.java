package io.jrxe.wire.cm;

import java.util.List;

/**
 * REP, the passive side's reply to a REQ (IBTA table 110): its QP, starting PSN and the
 * resources it grants.
 */
public final class RepFlyweight extends ConnectedMessageFlyweight<RepFlyweight> {
    public static final CmField LOCAL_QKEY = CmField.number(CmField.Kind.HEX, "local_qkey", "local Q_Key", 8, 0, 32);
    public static final CmField LOCAL_QPN = CmField.number(CmField.Kind.HEX, "local_qpn", "local QPN", 12, 0, 24);
    public static final CmField RESERVED_15 = CmField.reserved(15, 0, 8);
    public static final CmField LOCAL_EECN = CmField.number(CmField.Kind.HEX, "local_eecn", "local EECN", 16, 0, 24);
    public static final CmField RESERVED_19 = CmField.reserved(19, 0, 8);
    public static final CmField STARTING_PSN =
            CmField.number(CmField.Kind.HEX, "starting_psn", "starting PSN", 20, 0, 24);
    public static final CmField RESERVED_23 = CmField.reserved(23, 0, 8);
    public static final CmField RESPONDER_RESOURCES =
            CmField.number(CmField.Kind.NUMBER, "responder_resources", "responder resources", 24, 0, 8);
    public static final CmField INITIATOR_DEPTH =
            CmField.number(CmField.Kind.NUMBER, "initiator_depth", "initiator depth", 25, 0, 8);
    public static final CmField TARGET_ACK_DELAY =
            CmField.number(CmField.Kind.TIMEOUT, "target_ack_delay", "target ACK delay", 26, 0, 5);
    public static final CmField FAILOVER_ACCEPTED =
            CmField.number(CmField.Kind.NUMBER, "failover_accepted", "failover accepted", 26, 5, 2);
    public static final CmField END_TO_END_FLOW_CONTROL =
            CmField.number(CmField.Kind.FLAG, "end_to_end_flow_control", "end-to-end flow control", 26, 7, 1);
    public static final CmField RNR_RETRY_COUNT =
            CmField.number(CmField.Kind.NUMBER, "rnr_retry_count", "RNR retry count", 27, 0, 3);
    public static final CmField SRQ = CmField.number(CmField.Kind.FLAG, "srq", "SRQ", 27, 3, 1);
    public static final CmField RESERVED_27_4 = CmField.reserved(27, 4, 4);
    public static final CmField LOCAL_CA_GUID =
            CmField.number(CmField.Kind.HEX, "local_ca_guid", "local CA GUID", 28, 0, 64);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 36, 196);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, REMOTE_COMM_ID, LOCAL_QKEY, LOCAL_QPN, RESERVED_15, LOCAL_EECN, RESERVED_19, STARTING_PSN,
            RESERVED_23, RESPONDER_RESOURCES, INITIATOR_DEPTH, TARGET_ACK_DELAY, FAILOVER_ACCEPTED,
            END_TO_END_FLOW_CONTROL, RNR_RETRY_COUNT, SRQ, RESERVED_27_4, LOCAL_CA_GUID, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REP;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    public int localQkey() {
        return (int) get(LOCAL_QKEY);
    }

    public RepFlyweight localQkey(int value) {
        return set(LOCAL_QKEY, value);
    }

    public int localQpn() {
        return (int) get(LOCAL_QPN);
    }

    public RepFlyweight localQpn(int value) {
        return set(LOCAL_QPN, value);
    }

    public int localEecn() {
        return (int) get(LOCAL_EECN);
    }

    public RepFlyweight localEecn(int value) {
        return set(LOCAL_EECN, value);
    }

    public int startingPsn() {
        return (int) get(STARTING_PSN);
    }

    public RepFlyweight startingPsn(int value) {
        return set(STARTING_PSN, value);
    }

    public int responderResources() {
        return (int) get(RESPONDER_RESOURCES);
    }

    public RepFlyweight responderResources(int value) {
        return set(RESPONDER_RESOURCES, value);
    }

    public int initiatorDepth() {
        return (int) get(INITIATOR_DEPTH);
    }

    public RepFlyweight initiatorDepth(int value) {
        return set(INITIATOR_DEPTH, value);
    }

    public int targetAckDelay() {
        return (int) get(TARGET_ACK_DELAY);
    }

    public RepFlyweight targetAckDelay(int value) {
        return set(TARGET_ACK_DELAY, value);
    }

    public int failoverAccepted() {
        return (int) get(FAILOVER_ACCEPTED);
    }

    public RepFlyweight failoverAccepted(int value) {
        return set(FAILOVER_ACCEPTED, value);
    }

    public boolean endToEndFlowControl() {
        return get(END_TO_END_FLOW_CONTROL) != 0;
    }

    public RepFlyweight endToEndFlowControl(boolean value) {
        return set(END_TO_END_FLOW_CONTROL, value);
    }

    public int rnrRetryCount() {
        return (int) get(RNR_RETRY_COUNT);
    }

    public RepFlyweight rnrRetryCount(int value) {
        return set(RNR_RETRY_COUNT, value);
    }

    public boolean srq() {
        return get(SRQ) != 0;
    }

    public RepFlyweight srq(boolean value) {
        return set(SRQ, value);
    }

    public long localCaGuid() {
        return get(LOCAL_CA_GUID);
    }

    public RepFlyweight localCaGuid(long value) {
        return set(LOCAL_CA_GUID, value);
    }
}
