package io.jrxe.rnic.memory;

/**
 * Why a memory access through a key was refused. The data path turns these into NAKs and
 * completion statuses; the text names the rule, for traces and for vendor_err.
 */
public enum AccessError {
    NONE("ok"),
    KEY_NOT_FOUND("no MR or MW has this key's index"),
    STALE_KEY("the key's variant is old: the MR/MW was re-registered, deregistered or invalidated since"),
    INVALIDATED("the key was invalidated"),
    MW_NOT_BOUND("the memory window is not bound"),
    WRONG_PD("the key belongs to another protection domain"),
    NO_PERMISSION("the MR/MW does not grant the access asked for"),
    OUT_OF_RANGE("the range is outside the MR/MW"),
    WRONG_KIND("an L_Key was used where an R_Key is needed, or the reverse");

    private final String description;

    AccessError(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** A stable small number, reported as vendor_err. */
    public int code() {
        return ordinal();
    }
}
