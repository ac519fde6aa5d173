package io.jrxe.wire.cm;

/**
 * Why a REJ refuses a connection: the reason codes of IBTA's REJ reason table (chapter 12), as the Linux
 * CM numbers them too. RDMA CM passes the code up unchanged (rping prints "error 8" for a REQ
 * to a port nobody listens on).
 */
public enum RejectReason implements CmCode {
    NO_QP(1, "no QP available"),
    NO_EEC(2, "no EE context available"),
    NO_RESOURCES(3, "no resources available"),
    TIMEOUT(4, "timeout"),
    UNSUPPORTED_REQUEST(5, "unsupported request"),
    INVALID_COMM_ID(6, "invalid communication ID"),
    INVALID_COMM_INSTANCE(7, "invalid communication instance"),
    INVALID_SERVICE_ID(8, "invalid service ID"),
    INVALID_TRANSPORT_TYPE(9, "invalid transport service type"),
    STALE_CONNECTION(10, "stale connection"),
    RDC_NOT_EXIST(11, "RDC does not exist"),
    INVALID_GID(12, "primary remote port GID rejected"),
    INVALID_LID(13, "primary remote port LID rejected"),
    INVALID_SL(14, "primary SL rejected"),
    INVALID_TRAFFIC_CLASS(15, "primary traffic class rejected"),
    INVALID_HOP_LIMIT(16, "primary hop limit rejected"),
    INVALID_PACKET_RATE(17, "primary packet rate rejected"),
    INVALID_ALT_GID(18, "alternate remote port GID rejected"),
    INVALID_ALT_LID(19, "alternate remote port LID rejected"),
    INVALID_ALT_SL(20, "alternate SL rejected"),
    INVALID_ALT_TRAFFIC_CLASS(21, "alternate traffic class rejected"),
    INVALID_ALT_HOP_LIMIT(22, "alternate hop limit rejected"),
    INVALID_ALT_PACKET_RATE(23, "alternate packet rate rejected"),
    PORT_CM_REDIRECT(24, "port and CM redirection"),
    PORT_REDIRECT(25, "port redirection"),
    INVALID_MTU(26, "invalid path MTU"),
    INSUFFICIENT_RESPONDER_RESOURCES(27, "insufficient responder resources"),
    CONSUMER_REJECT(28, "consumer reject"),
    INVALID_RNR_RETRY(29, "RNR retry count rejected"),
    DUPLICATE_LOCAL_COMM_ID(30, "duplicate local communication ID"),
    UNSUPPORTED_CLASS_VERSION(31, "unsupported class version"),
    INVALID_FLOW_LABEL(32, "invalid primary flow label"),
    INVALID_ALT_FLOW_LABEL(33, "invalid alternate flow label"),
    VENDOR_OPTION_NOT_SUPPORTED(35, "vendor option not supported");

    private final int code;
    private final String description;

    RejectReason(int code, String description) {
        this.code = code;
        this.description = description;
    }

    @Override
    public int code() {
        return code;
    }

    @Override
    public String description() {
        return description;
    }

    /** The reason with this code, or null for a code IBTA does not assign. */
    public static RejectReason of(int code) {
        return CmCode.of(RejectReason.class, code);
    }

    /** What the code means, e.g. "invalid service ID", or "reason 34 (unassigned)". */
    public static String describe(int code) {
        return CmCode.describe(RejectReason.class, code, "reason");
    }
}
