package io.jrxe.wire.cm;

import java.util.List;

/**
 * LAP, load alternate path (IBTA table 115): a new alternate path for an established connection.
 */
public final class LapFlyweight extends ConnectedMessageFlyweight<LapFlyweight> {
    public static final CmField RESERVED_8 = CmField.reserved(8, 0, 32);
    public static final CmField REMOTE_QPN =
            CmField.number(CmField.Kind.HEX, "remote_qpn_eecn", "remote QPN/EECN", 12, 0, 24);
    public static final CmField REMOTE_CM_RESPONSE_TIMEOUT =
            CmField.number(CmField.Kind.TIMEOUT, "remote_cm_response_timeout", "remote CM response timeout", 15, 0, 5);
    public static final CmField RESERVED_15_5 = CmField.reserved(15, 5, 3);
    public static final CmField RESERVED_16 = CmField.reserved(16, 0, 32);
    public static final CmField ALTERNATE_LOCAL_LID =
            CmField.number(CmField.Kind.NUMBER, "alternate_local_lid", "alternate local port LID", 20, 0, 16);
    public static final CmField ALTERNATE_REMOTE_LID =
            CmField.number(CmField.Kind.NUMBER, "alternate_remote_lid", "alternate remote port LID", 22, 0, 16);
    public static final CmField ALTERNATE_LOCAL_GID =
            CmField.bytes(CmField.Kind.GID, "alternate_local_gid", "alternate local port GID", 24, 16);
    public static final CmField ALTERNATE_REMOTE_GID =
            CmField.bytes(CmField.Kind.GID, "alternate_remote_gid", "alternate remote port GID", 40, 16);
    public static final CmField ALTERNATE_FLOW_LABEL =
            CmField.number(CmField.Kind.HEX, "alternate_flow_label", "alternate flow label", 56, 0, 20);
    public static final CmField RESERVED_58_4 = CmField.reserved(58, 4, 4);
    public static final CmField ALTERNATE_TRAFFIC_CLASS =
            CmField.number(CmField.Kind.HEX, "alternate_traffic_class", "alternate traffic class", 59, 0, 8);
    public static final CmField ALTERNATE_HOP_LIMIT =
            CmField.number(CmField.Kind.NUMBER, "alternate_hop_limit", "alternate hop limit", 60, 0, 8);
    public static final CmField RESERVED_61 = CmField.reserved(61, 0, 2);
    public static final CmField ALTERNATE_PACKET_RATE =
            CmField.number(CmField.Kind.NUMBER, "alternate_packet_rate", "alternate packet rate", 61, 2, 6);
    public static final CmField ALTERNATE_SL =
            CmField.number(CmField.Kind.NUMBER, "alternate_sl", "alternate SL", 62, 0, 4);
    public static final CmField ALTERNATE_SUBNET_LOCAL =
            CmField.number(CmField.Kind.FLAG, "alternate_subnet_local", "alternate subnet local", 62, 4, 1);
    public static final CmField RESERVED_62_5 = CmField.reserved(62, 5, 3);
    public static final CmField ALTERNATE_LOCAL_ACK_TIMEOUT =
            CmField.number(CmField.Kind.ACK_TIMEOUT, "alternate_local_ack_timeout", "alternate local ACK timeout", 63, 0, 5);
    public static final CmField RESERVED_63_5 = CmField.reserved(63, 5, 3);
    public static final CmField PRIVATE_DATA =
            CmField.bytes(CmField.Kind.BYTES, "private_data", "private data", 64, 168);

    /** Every field in wire order; together they cover the message's 232 bytes. */
    public static final List<CmField> FIELDS = List.of(
            LOCAL_COMM_ID, REMOTE_COMM_ID, RESERVED_8, REMOTE_QPN, REMOTE_CM_RESPONSE_TIMEOUT, RESERVED_15_5,
            RESERVED_16, ALTERNATE_LOCAL_LID, ALTERNATE_REMOTE_LID, ALTERNATE_LOCAL_GID, ALTERNATE_REMOTE_GID,
            ALTERNATE_FLOW_LABEL, RESERVED_58_4, ALTERNATE_TRAFFIC_CLASS, ALTERNATE_HOP_LIMIT, RESERVED_61,
            ALTERNATE_PACKET_RATE, ALTERNATE_SL, ALTERNATE_SUBNET_LOCAL, RESERVED_62_5, ALTERNATE_LOCAL_ACK_TIMEOUT,
            RESERVED_63_5, PRIVATE_DATA);

    @Override
    public CmAttribute attribute() {
        return CmAttribute.LAP;
    }

    @Override
    protected CmField privateDataField() {
        return PRIVATE_DATA;
    }

    public int remoteQpn() {
        return (int) get(REMOTE_QPN);
    }

    public LapFlyweight remoteQpn(int value) {
        return set(REMOTE_QPN, value);
    }

    public int remoteCmResponseTimeout() {
        return (int) get(REMOTE_CM_RESPONSE_TIMEOUT);
    }

    public LapFlyweight remoteCmResponseTimeout(int value) {
        return set(REMOTE_CM_RESPONSE_TIMEOUT, value);
    }

    public int alternateLocalLid() {
        return (int) get(ALTERNATE_LOCAL_LID);
    }

    public LapFlyweight alternateLocalLid(int value) {
        return set(ALTERNATE_LOCAL_LID, value);
    }

    public int alternateRemoteLid() {
        return (int) get(ALTERNATE_REMOTE_LID);
    }

    public LapFlyweight alternateRemoteLid(int value) {
        return set(ALTERNATE_REMOTE_LID, value);
    }

    public LapFlyweight getAlternateLocalGid(byte[] dst, int dstOffset) {
        return getBytes(ALTERNATE_LOCAL_GID, dst, dstOffset);
    }

    public LapFlyweight putAlternateLocalGid(byte[] src, int srcOffset, int length) {
        return putBytes(ALTERNATE_LOCAL_GID, src, srcOffset, length);
    }

    public LapFlyweight getAlternateRemoteGid(byte[] dst, int dstOffset) {
        return getBytes(ALTERNATE_REMOTE_GID, dst, dstOffset);
    }

    public LapFlyweight putAlternateRemoteGid(byte[] src, int srcOffset, int length) {
        return putBytes(ALTERNATE_REMOTE_GID, src, srcOffset, length);
    }

    public int alternateFlowLabel() {
        return (int) get(ALTERNATE_FLOW_LABEL);
    }

    public LapFlyweight alternateFlowLabel(int value) {
        return set(ALTERNATE_FLOW_LABEL, value);
    }

    public int alternateTrafficClass() {
        return (int) get(ALTERNATE_TRAFFIC_CLASS);
    }

    public LapFlyweight alternateTrafficClass(int value) {
        return set(ALTERNATE_TRAFFIC_CLASS, value);
    }

    public int alternateHopLimit() {
        return (int) get(ALTERNATE_HOP_LIMIT);
    }

    public LapFlyweight alternateHopLimit(int value) {
        return set(ALTERNATE_HOP_LIMIT, value);
    }

    public int alternatePacketRate() {
        return (int) get(ALTERNATE_PACKET_RATE);
    }

    public LapFlyweight alternatePacketRate(int value) {
        return set(ALTERNATE_PACKET_RATE, value);
    }

    public int alternateSl() {
        return (int) get(ALTERNATE_SL);
    }

    public LapFlyweight alternateSl(int value) {
        return set(ALTERNATE_SL, value);
    }

    public boolean alternateSubnetLocal() {
        return get(ALTERNATE_SUBNET_LOCAL) != 0;
    }

    public LapFlyweight alternateSubnetLocal(boolean value) {
        return set(ALTERNATE_SUBNET_LOCAL, value);
    }

    public int alternateLocalAckTimeout() {
        return (int) get(ALTERNATE_LOCAL_ACK_TIMEOUT);
    }

    public LapFlyweight alternateLocalAckTimeout(int value) {
        return set(ALTERNATE_LOCAL_ACK_TIMEOUT, value);
    }
}
