package io.jrxe.rnic.memory;

/**
 * Why a jrxe NIC refused a memory access through a key: the reason codes of {@link MemoryTables}' checks, which
 * the engines turn into NAKs and completion statuses. A local refusal's {@link #code()} is the completion's
 * vendor_err (docs/architecture.md's table), and {@link #description()} names the rule, for traces and for the
 * emulated provider's EmulatedExtension.vendorErrMeaning. jrxe's alone: a kernel device's vendor_err means
 * whatever its vendor says.
 */
public enum AccessError {
    /** The access is allowed. */
    NONE("ok"),
    /** No MR or MW has the key's index. */
    KEY_NOT_FOUND("no MR or MW has this key's index"),
    /**
     * The key's index was handed out, but its variant byte is not the current one of the entry there. The check cannot
     * tell a key from before a re-registration, deregistration or invalidation from one never handed out (a key
     * made up or mistyped), so the words say what it found, not which of them happened.
     */
    WRONG_VARIANT("the key's index was handed out on this device, but no MR or MW there now has the key's variant (its low byte)"),
    /** The key was invalidated (LOCAL_INV, SEND_WITH_INV). */
    INVALIDATED("the key was invalidated"),
    /** A memory window that is not bound. */
    MW_NOT_BOUND("the memory window is not bound"),
    /** The key belongs to another protection domain. */
    WRONG_PD("the key belongs to another protection domain"),
    /** The MR or MW does not grant the rights asked for. */
    NO_PERMISSION("the MR/MW does not grant the access asked for"),
    /** The range is not inside the MR or MW. */
    OUT_OF_RANGE("the range is outside the MR/MW"),
    /** An L_Key where an R_Key is needed, or the reverse. */
    WRONG_KIND("an L_Key was used where an R_Key is needed, or the reverse"),
    /**
     * The MR's memory was freed while registered (in Java, its Arena closed). A kernel keeps such pages pinned until
     * deregistration; Java unmaps them, so the NIC refuses the access as the key check would.
     */
    MEMORY_FREED("the MR's memory was freed (its Arena closed) while it was registered"),
    /**
     * An implicit MR's range is not inside one segment mapped into the device's address space ({@link MappedSegments}):
     * the address was never mapped, was unmapped, or the range runs past its segment's end.
     */
    NOT_MAPPED("the range is not inside one segment mapped into the device's address space (an implicit MR)");

    private final String description;

    AccessError(String description) {
        this.description = description;
    }

    /** What the rule says, in words. */
    public String description() {
        return description;
    }

    /** A stable small number, reported as vendor_err. */
    public int code() {
        return ordinal();
    }
}
