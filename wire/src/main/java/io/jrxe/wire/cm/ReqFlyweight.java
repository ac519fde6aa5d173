package io.jrxe.wire.cm;

import java.util.List;

/**
 * REQ, the connection request (IBTA table 106): the active side's QP, starting PSN, path and
 * retry parameters, and 92 bytes of private data (for RDMA CM, the IP CM header and the
 * consumer's data). Wrap it at the MAD's offset + 24.
 */
public final class ReqFlyweight extends CmMessageFlyweight<ReqFlyweight> {
    public static final CmField LOCAL_COMM_ID = ConnectedMessageFlyweight.LOCAL_COMM_ID;
    public static final CmField RESERVED_4 = CmField.reserved(4, 0, 32);
    public static final CmField SERVICE_ID =
            CmField.number(CmField.Kind.SERVICE_ID, "service_id", "service ID", 8, 0, 64);
    public static final CmField LOCAL_CA_GUID =
            CmField.number(CmField.Kind.HEX, "local_ca_guid", "local CA GUID", 16, 0, 64);
    public static final CmField RESERVED_24 = CmField.reserved(24, 0, 32);
    public static final CmField LOCAL_QKEY = CmField.number(CmField.Kind.HEX, "local_qkey", "local Q_Key", 28, 0, 32);
    public static final CmField LOCAL_QPN = CmField.number(CmField.Kind.HEX, "local_qpn", "local QPN", 32, 0, 24);
    public static final CmField RESPONDER_RESOURCES =
            CmField.number(CmField.Kind.NUMBER, "responder_resources", "responder resources", 35, 0, 8);
    public static final CmField LOCAL_EECN = CmField.number(CmField.Kind.HEX, "local_eecn", "local EECN", 36, 0, 24);
    public static final CmField INITIATOR_DEPTH =
            CmField.number(CmField.Kind.NUMBER, "initiator_depth", "initiator depth", 39, 0, 8);
    public static final CmField REMOTE_EECN = CmField.number(CmField.Kind.HEX, "remote_eecn", "remote EECN", 40, 0, 24);
    public static final CmField REMOTE_CM_RESPONSE_TIMEOUT =
            CmField.number(CmField.Kind.TIMEOUT, "remote_cm_response_timeout", "remote CM response timeout", 43, 0, 5);
    public static final CmField TRANSPORT_SERVICE_TYPE =
            CmField.number(CmField.Kind.NUMBER, "transport_service_type", "transport service type", 43, 5, 2);
    public static final CmField END_TO_END_FLOW_CONTROL =
            CmField.number(CmField.Kind.FLAG, "end_to_end_flow_control", "end-to-end flow control", 43, 7, 1);
    public static final CmField STARTING_PSN =
            CmField.number(CmField.Kind.HEX, "starting_psn", "starting PSN", 44, 0, 24);
    public static final CmField LOCAL_CM_RESPONSE_TIMEOUT =
            CmField.number(CmField.Kind.TIMEOUT, "local_cm_response_timeout", "local CM response timeout", 47, 0, 5);
    public static final CmField RETRY_COUNT =
            CmField.number(CmField.Kind.NUMBER, "retry_count", "retry count", 47, 5, 3);
    public static final CmField PARTITION_KEY =
            CmField.number(CmField.Kind.HEX, "partition_key", "partition key", 48, 0, 16);
    public static final CmField PATH_MTU =
            CmField.number(CmField.Kind.MTU, "path_mtu", "path packet payload MTU", 50, 0, 4);
    public static final CmField RDC_EXISTS = CmField.number(CmField.Kind.FLAG, "rdc_exists", "RDC exists", 50, 4, 1);
    public static final CmField RNR_RETRY_COUNT =
            CmField.number(CmField.Kind.NUMBER, "rnr_retry_count", "RNR retry count", 50, 5, 3);
    public static final CmField MAX_CM_RETRIES =
            CmField.number(CmField.Kind.NUMBER, "max_cm_retries", "max CM retries", 51, 0, 4);
    public static final CmField SRQ = CmField.number(CmField.Kind.FLAG, "srq", "SRQ", 51, 4, 1);
    public static final CmField EXTENDED_TRANSPORT_TYPE =
            CmField.number(CmField.Kind.NUMBER, "extended_transport_type", "extended transport type", 51, 5, 3);
    public static final CmField PRIMARY_LOCAL_LID =
            CmField.number(CmField.Kind.NUMBER, "primary_local_lid", "primary local port LID", 52, 0, 16);
    public static final CmField PRIMARY_REMOTE_LID =
            CmField.number(CmField.Kind.NUMBER, "primary_remote_lid", "primary remote port LID", 54, 0, 16);
    public static final CmField PRIMARY_LOCAL_GID =
            CmField.bytes(CmField.Kind.GID, "primary_local_gid", "primary local port GID", 56, 16);
    public static final CmField PRIMARY_REMOTE_GID =
            CmField.bytes(CmField.Kind.GID, "primary_remote_gid", "primary remote port GID", 72, 16);
    public static final CmField PRIMARY_FLOW_LABEL =
            CmField.number(CmField.Kind.HEX, "primary_flow_label", "primary flow label", 88, 0, 20);
    public static final CmField RESERVED_90_4 = CmField.reserved(90, 4, 6);
    public static final CmField PRIMARY_PACKET_RATE =
            CmField.number(CmField.Kind.NUMBER, "primary_packet_rate", "primary packet rate", 91, 2, 6);
    public static final CmField PRIMARY_TRAFFIC_CLASS =
            CmField.number(CmField.Kind.HEX, "primary_traffic_class", "primary traffic class", 92, 0, 8);
    public static final CmField PRIMARY_HOP_LIMIT =
            CmField.number(CmField.Kind.NUMBER, "primary_hop_limit", "primary hop limit", 93, 0, 8);
    public static final CmField PRIMARY_SL = CmField.number(CmField.Kind.NUMBER, "primary_sl", "primary SL", 94, 0, 4);
    public static final CmField PRIMARY_SUBNET_LOCAL =
            CmField.number(CmField.Kind.FLAG, "primary_subnet_local", "primary subnet local", 94, 4, 1);
    public static final CmField RESERVED_94_5 = CmField.reserved(94, 5, 3);
    public static final CmField PRIMARY_LOCAL_ACK_TIMEOUT =
            CmField.number(CmField.Kind.ACK_TIMEOUT, "primary_local_ack_timeout", "primary local ACK timeout", 95, 0, 5);
    public static final CmField RESERVED_95_5 = CmField.reserved(95, 5, 3);
    public static final CmField ALTERNATE_LOCAL_LID =
            CmField.number(CmField.Kind.NUMBER, "alternate_local_lid", "alternate local port LID", 96, 0, 16);
    public static final CmField ALTERNATE_REMOTE_LID =
            CmField.number(CmField.Kind.NUMBER, "alternate_remote_lid", "alternate remote port LID", 98, 0, 16);
    public static final CmField ALTERNATE_LOCAL_GID =
            CmField.bytes(CmField.Kind.GID, "alternate_local_gid", "alternate local port GID", 100, 16);
    public static final CmField ALTERNATE_REMOTE_GID =
            CmField.bytes(CmField.Kind.GID, "alternate_remote_gid", "alternate remote port GID", 116, 16);
    public static final CmField ALTERNATE_FLOW_LABEL =
            CmField.number(CmField.Kind.HEX, "alternate_flow_label", "alternate flow label", 132, 0, 20);
    public static final CmField RESERVED_134_4 = CmField.reserved(134, 4, 6);
    public static final CmField ALTERNATE_PACKET_RATE =
            CmField.number(CmField.Kind.NUMBER, "alternate_packet_rate", "alternate packet rate", 135, 2, 6);
    public static final CmField ALTERNATE_TRAFFIC_CLASS =
            CmField.number(CmField.Kind.HEX, "alternate_traffic_class", "alternate traffic class", 136, 0, 8);
    public static final CmField ALTERNATE_HOP_LIMIT =
            CmField.number(CmField.Kind.NUMBER, "alternate_hop_limit", "alternate hop limit", 137, 0, 8);
    public static final CmField ALTERNATE_SL =
            CmField.number(CmField.Kind.NUMBER, "alternate_sl", "alternate SL", 138, 0, 4);
    public static final CmField ALTERNATE_SUBNET_LOCAL =
            CmField.number(CmField.Kind.FLAG, "alternate_subnet_local", "alternate subnet local", 138, 4, 1);
    public static final CmField RESERVED_138_5 = CmField.reserved(138, 5, 3);
    public static final CmField ALTERNATE_LOCAL_ACK_TIMEOUT =
            CmField.number(CmField.Kind.ACK_TIMEOUT, "alternate_local_ack_timeout", "alternate local ACK timeout", 139, 0, 5);
    public static final CmField SAP_SUPPORTED =
            CmField.number(CmField.Kind.FLAG, "sap_supported", "SAP supported", 139, 5, 1);
    public static final CmField RESERVED_139_6 = CmField.reserved(139, 6, 2);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 140, 92);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, RESERVED_4, SERVICE_ID, LOCAL_CA_GUID, RESERVED_24, LOCAL_QKEY, LOCAL_QPN,
            RESPONDER_RESOURCES, LOCAL_EECN, INITIATOR_DEPTH, REMOTE_EECN, REMOTE_CM_RESPONSE_TIMEOUT,
            TRANSPORT_SERVICE_TYPE, END_TO_END_FLOW_CONTROL, STARTING_PSN, LOCAL_CM_RESPONSE_TIMEOUT, RETRY_COUNT,
            PARTITION_KEY, PATH_MTU, RDC_EXISTS, RNR_RETRY_COUNT, MAX_CM_RETRIES, SRQ, EXTENDED_TRANSPORT_TYPE,
            PRIMARY_LOCAL_LID, PRIMARY_REMOTE_LID, PRIMARY_LOCAL_GID, PRIMARY_REMOTE_GID, PRIMARY_FLOW_LABEL,
            RESERVED_90_4, PRIMARY_PACKET_RATE, PRIMARY_TRAFFIC_CLASS, PRIMARY_HOP_LIMIT, PRIMARY_SL,
            PRIMARY_SUBNET_LOCAL, RESERVED_94_5, PRIMARY_LOCAL_ACK_TIMEOUT, RESERVED_95_5, ALTERNATE_LOCAL_LID,
            ALTERNATE_REMOTE_LID, ALTERNATE_LOCAL_GID, ALTERNATE_REMOTE_GID, ALTERNATE_FLOW_LABEL, RESERVED_134_4,
            ALTERNATE_PACKET_RATE, ALTERNATE_TRAFFIC_CLASS, ALTERNATE_HOP_LIMIT, ALTERNATE_SL, ALTERNATE_SUBNET_LOCAL,
            RESERVED_138_5, ALTERNATE_LOCAL_ACK_TIMEOUT, SAP_SUPPORTED, RESERVED_139_6, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.REQ;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    /** The sender's communication ID, which every later message of the connection quotes. */
    public int localCommId() {
        return (int) get(LOCAL_COMM_ID);
    }

    public ReqFlyweight localCommId(int value) {
        return set(LOCAL_COMM_ID, value);
    }

    public long serviceId() {
        return get(SERVICE_ID);
    }

    public ReqFlyweight serviceId(long value) {
        return set(SERVICE_ID, value);
    }

    public long localCaGuid() {
        return get(LOCAL_CA_GUID);
    }

    public ReqFlyweight localCaGuid(long value) {
        return set(LOCAL_CA_GUID, value);
    }

    public int localQkey() {
        return (int) get(LOCAL_QKEY);
    }

    public ReqFlyweight localQkey(int value) {
        return set(LOCAL_QKEY, value);
    }

    public int localQpn() {
        return (int) get(LOCAL_QPN);
    }

    public ReqFlyweight localQpn(int value) {
        return set(LOCAL_QPN, value);
    }

    /** RDMA READs and atomics the sender will take in at once: the peer's initiator depth bound. */
    public int responderResources() {
        return (int) get(RESPONDER_RESOURCES);
    }

    public ReqFlyweight responderResources(int value) {
        return set(RESPONDER_RESOURCES, value);
    }

    public int localEecn() {
        return (int) get(LOCAL_EECN);
    }

    public ReqFlyweight localEecn(int value) {
        return set(LOCAL_EECN, value);
    }

    /** RDMA READs and atomics the sender will have outstanding at once. */
    public int initiatorDepth() {
        return (int) get(INITIATOR_DEPTH);
    }

    public ReqFlyweight initiatorDepth(int value) {
        return set(INITIATOR_DEPTH, value);
    }

    public int remoteEecn() {
        return (int) get(REMOTE_EECN);
    }

    public ReqFlyweight remoteEecn(int value) {
        return set(REMOTE_EECN, value);
    }

    public int remoteCmResponseTimeout() {
        return (int) get(REMOTE_CM_RESPONSE_TIMEOUT);
    }

    public ReqFlyweight remoteCmResponseTimeout(int value) {
        return set(REMOTE_CM_RESPONSE_TIMEOUT, value);
    }

    /** 0 RC, 1 UC, 2 RD (3: see the extended transport type). */
    public int transportServiceType() {
        return (int) get(TRANSPORT_SERVICE_TYPE);
    }

    public ReqFlyweight transportServiceType(int value) {
        return set(TRANSPORT_SERVICE_TYPE, value);
    }

    public boolean endToEndFlowControl() {
        return get(END_TO_END_FLOW_CONTROL) != 0;
    }

    public ReqFlyweight endToEndFlowControl(boolean value) {
        return set(END_TO_END_FLOW_CONTROL, value);
    }

    public int startingPsn() {
        return (int) get(STARTING_PSN);
    }

    public ReqFlyweight startingPsn(int value) {
        return set(STARTING_PSN, value);
    }

    public int localCmResponseTimeout() {
        return (int) get(LOCAL_CM_RESPONSE_TIMEOUT);
    }

    public ReqFlyweight localCmResponseTimeout(int value) {
        return set(LOCAL_CM_RESPONSE_TIMEOUT, value);
    }

    public int retryCount() {
        return (int) get(RETRY_COUNT);
    }

    public ReqFlyweight retryCount(int value) {
        return set(RETRY_COUNT, value);
    }

    public int partitionKey() {
        return (int) get(PARTITION_KEY);
    }

    public ReqFlyweight partitionKey(int value) {
        return set(PARTITION_KEY, value);
    }

    public int pathMtu() {
        return (int) get(PATH_MTU);
    }

    public ReqFlyweight pathMtu(int value) {
        return set(PATH_MTU, value);
    }

    public boolean rdcExists() {
        return get(RDC_EXISTS) != 0;
    }

    public ReqFlyweight rdcExists(boolean value) {
        return set(RDC_EXISTS, value);
    }

    public int rnrRetryCount() {
        return (int) get(RNR_RETRY_COUNT);
    }

    public ReqFlyweight rnrRetryCount(int value) {
        return set(RNR_RETRY_COUNT, value);
    }

    public int maxCmRetries() {
        return (int) get(MAX_CM_RETRIES);
    }

    public ReqFlyweight maxCmRetries(int value) {
        return set(MAX_CM_RETRIES, value);
    }

    public boolean srq() {
        return get(SRQ) != 0;
    }

    public ReqFlyweight srq(boolean value) {
        return set(SRQ, value);
    }

    public int extendedTransportType() {
        return (int) get(EXTENDED_TRANSPORT_TYPE);
    }

    public ReqFlyweight extendedTransportType(int value) {
        return set(EXTENDED_TRANSPORT_TYPE, value);
    }

    public int primaryLocalLid() {
        return (int) get(PRIMARY_LOCAL_LID);
    }

    public ReqFlyweight primaryLocalLid(int value) {
        return set(PRIMARY_LOCAL_LID, value);
    }

    public int primaryRemoteLid() {
        return (int) get(PRIMARY_REMOTE_LID);
    }

    public ReqFlyweight primaryRemoteLid(int value) {
        return set(PRIMARY_REMOTE_LID, value);
    }

    public ReqFlyweight getPrimaryLocalGid(byte[] dst, int dstOffset) {
        return getBytes(PRIMARY_LOCAL_GID, dst, dstOffset);
    }

    public ReqFlyweight putPrimaryLocalGid(byte[] src, int srcOffset, int length) {
        return putBytes(PRIMARY_LOCAL_GID, src, srcOffset, length);
    }

    public ReqFlyweight getPrimaryRemoteGid(byte[] dst, int dstOffset) {
        return getBytes(PRIMARY_REMOTE_GID, dst, dstOffset);
    }

    public ReqFlyweight putPrimaryRemoteGid(byte[] src, int srcOffset, int length) {
        return putBytes(PRIMARY_REMOTE_GID, src, srcOffset, length);
    }

    public int primaryFlowLabel() {
        return (int) get(PRIMARY_FLOW_LABEL);
    }

    public ReqFlyweight primaryFlowLabel(int value) {
        return set(PRIMARY_FLOW_LABEL, value);
    }

    public int primaryPacketRate() {
        return (int) get(PRIMARY_PACKET_RATE);
    }

    public ReqFlyweight primaryPacketRate(int value) {
        return set(PRIMARY_PACKET_RATE, value);
    }

    public int primaryTrafficClass() {
        return (int) get(PRIMARY_TRAFFIC_CLASS);
    }

    public ReqFlyweight primaryTrafficClass(int value) {
        return set(PRIMARY_TRAFFIC_CLASS, value);
    }

    public int primaryHopLimit() {
        return (int) get(PRIMARY_HOP_LIMIT);
    }

    public ReqFlyweight primaryHopLimit(int value) {
        return set(PRIMARY_HOP_LIMIT, value);
    }

    public int primarySl() {
        return (int) get(PRIMARY_SL);
    }

    public ReqFlyweight primarySl(int value) {
        return set(PRIMARY_SL, value);
    }

    public boolean primarySubnetLocal() {
        return get(PRIMARY_SUBNET_LOCAL) != 0;
    }

    public ReqFlyweight primarySubnetLocal(boolean value) {
        return set(PRIMARY_SUBNET_LOCAL, value);
    }

    public int primaryLocalAckTimeout() {
        return (int) get(PRIMARY_LOCAL_ACK_TIMEOUT);
    }

    public ReqFlyweight primaryLocalAckTimeout(int value) {
        return set(PRIMARY_LOCAL_ACK_TIMEOUT, value);
    }

    public int alternateLocalLid() {
        return (int) get(ALTERNATE_LOCAL_LID);
    }

    public ReqFlyweight alternateLocalLid(int value) {
        return set(ALTERNATE_LOCAL_LID, value);
    }

    public int alternateRemoteLid() {
        return (int) get(ALTERNATE_REMOTE_LID);
    }

    public ReqFlyweight alternateRemoteLid(int value) {
        return set(ALTERNATE_REMOTE_LID, value);
    }

    public ReqFlyweight getAlternateLocalGid(byte[] dst, int dstOffset) {
        return getBytes(ALTERNATE_LOCAL_GID, dst, dstOffset);
    }

    public ReqFlyweight putAlternateLocalGid(byte[] src, int srcOffset, int length) {
        return putBytes(ALTERNATE_LOCAL_GID, src, srcOffset, length);
    }

    public ReqFlyweight getAlternateRemoteGid(byte[] dst, int dstOffset) {
        return getBytes(ALTERNATE_REMOTE_GID, dst, dstOffset);
    }

    public ReqFlyweight putAlternateRemoteGid(byte[] src, int srcOffset, int length) {
        return putBytes(ALTERNATE_REMOTE_GID, src, srcOffset, length);
    }

    public int alternateFlowLabel() {
        return (int) get(ALTERNATE_FLOW_LABEL);
    }

    public ReqFlyweight alternateFlowLabel(int value) {
        return set(ALTERNATE_FLOW_LABEL, value);
    }

    public int alternatePacketRate() {
        return (int) get(ALTERNATE_PACKET_RATE);
    }

    public ReqFlyweight alternatePacketRate(int value) {
        return set(ALTERNATE_PACKET_RATE, value);
    }

    public int alternateTrafficClass() {
        return (int) get(ALTERNATE_TRAFFIC_CLASS);
    }

    public ReqFlyweight alternateTrafficClass(int value) {
        return set(ALTERNATE_TRAFFIC_CLASS, value);
    }

    public int alternateHopLimit() {
        return (int) get(ALTERNATE_HOP_LIMIT);
    }

    public ReqFlyweight alternateHopLimit(int value) {
        return set(ALTERNATE_HOP_LIMIT, value);
    }

    public int alternateSl() {
        return (int) get(ALTERNATE_SL);
    }

    public ReqFlyweight alternateSl(int value) {
        return set(ALTERNATE_SL, value);
    }

    public boolean alternateSubnetLocal() {
        return get(ALTERNATE_SUBNET_LOCAL) != 0;
    }

    public ReqFlyweight alternateSubnetLocal(boolean value) {
        return set(ALTERNATE_SUBNET_LOCAL, value);
    }

    public int alternateLocalAckTimeout() {
        return (int) get(ALTERNATE_LOCAL_ACK_TIMEOUT);
    }

    public ReqFlyweight alternateLocalAckTimeout(int value) {
        return set(ALTERNATE_LOCAL_ACK_TIMEOUT, value);
    }

    public boolean sapSupported() {
        return get(SAP_SUPPORTED) != 0;
    }

    public ReqFlyweight sapSupported(boolean value) {
        return set(SAP_SUPPORTED, value);
    }
}
