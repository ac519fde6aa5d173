package io.jrxe.wire.cm;

/** The status of a SIDR_REP (IBTA chapter 12): whether the service ID resolved to a UD QP. */
public enum SidrStatus implements CmCode {
    VALID(0, "QP valid"),
    SERVICE_ID_NOT_SUPPORTED(1, "service ID not supported"),
    REJECTED(2, "rejected by the service provider"),
    NO_QP(3, "no QP available"),
    REDIRECT(4, "redirect"),
    UNSUPPORTED_VERSION(5, "unsupported class version");

    private final int code;
    private final String description;

    SidrStatus(int code, String description) {
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
    public static SidrStatus of(int code) {
        return CmCode.of(SidrStatus.class, code);
    }

    /** What the code means, or "status N (unassigned)". */
    public static String describe(int code) {
        return CmCode.describe(SidrStatus.class, code, "status");
    }
}
