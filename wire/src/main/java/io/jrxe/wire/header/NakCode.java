package io.jrxe.wire.header;

/** The NAK codes carried in an AETH syndrome of type NAK (IBTA 9.7.5.1, table 44). */
public enum NakCode {
    PSN_SEQUENCE_ERROR(0, "PSN sequence error"),
    INVALID_REQUEST(1, "invalid request"),
    REMOTE_ACCESS_ERROR(2, "remote access error"),
    REMOTE_OPERATIONAL_ERROR(3, "remote operational error"),
    INVALID_RD_REQUEST(4, "invalid RD request");

    private final int value;
    private final String description;

    NakCode(int value, String description) {
        this.value = value;
        this.description = description;
    }

    public int value() {
        return value;
    }

    public String description() {
        return description;
    }

    /** The code with this value, or null for a reserved value. */
    public static NakCode of(int value) {
        for (NakCode code : values()) {
            if (code.value == value) {
                return code;
            }
        }
        return null;
    }
}
