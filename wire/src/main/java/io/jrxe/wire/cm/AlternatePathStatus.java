package io.jrxe.wire.cm;

/** The AP status of an APR (IBTA chapter 12): whether the alternate path a LAP proposed was loaded. */
public enum AlternatePathStatus implements CmCode {
    LOADED(0, "alternate path loaded"),
    INVALID_COMM_ID(1, "invalid communication ID"),
    UNSUPPORTED(2, "alternate paths not supported"),
    REJECTED(3, "rejected"),
    REDIRECT(4, "redirect"),
    IS_CURRENT(5, "path is the current path"),
    INVALID_QPN_EECN(6, "invalid QPN or EECN"),
    INVALID_LID(7, "alternate LID rejected"),
    INVALID_GID(8, "alternate GID rejected"),
    INVALID_FLOW_LABEL(9, "alternate flow label rejected"),
    INVALID_TRAFFIC_CLASS(10, "alternate traffic class rejected"),
    INVALID_HOP_LIMIT(11, "alternate hop limit rejected"),
    INVALID_PACKET_RATE(12, "alternate packet rate rejected"),
    INVALID_SL(13, "alternate SL rejected");

    private final int code;
    private final String description;

    AlternatePathStatus(int code, String description) {
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

    /** The status with this code, or null for a code IBTA does not assign. */
    public static AlternatePathStatus of(int code) {
        return CmCode.of(AlternatePathStatus.class, code);
    }

    /** What the code means, or "status N (unassigned)". */
    public static String describe(int code) {
        return CmCode.describe(AlternatePathStatus.class, code, "status");
    }
}
