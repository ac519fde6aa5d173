package io.jrxe.rnic.engine;

/**
 * Why the GSI QP (QP1) or the agent behind it dropped a MAD. Each has its own counter in
 * {@link GsiCounters}, so that a hostile or broken peer's MADs are explained, never thrown.
 */
public enum MadDropReason {
    WRONG_OPCODE("not a UD SEND ONLY"),
    BAD_LENGTH("payload is not one 256-byte MAD"),
    BAD_PKEY("BTH P_Key matches no entry of the port's table"),
    BAD_QKEY("DETH Q_Key is not the GSI's 0x80010000"),
    BAD_BASE_VERSION("MAD base version is not 1"),
    UNKNOWN_CLASS("no agent for the management class"),
    BAD_CLASS_VERSION("class version the agent does not speak"),
    AGENT_BUSY("the agent's inbox is full: it has not drained the MADs before it"),
    UNKNOWN_ATTRIBUTE("attribute or method the agent does not handle"),
    NO_CONNECTION("names no connection of this CM"),
    WRONG_STATE("not expected in the connection's state"),
    DUPLICATE("a duplicate that needs no answer");

    private final String description;

    MadDropReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** The counter's name, e.g. jrxe_gsi_drop_bad_pkey. */
    public String label() {
        return "jrxe_gsi_drop_" + name().toLowerCase(java.util.Locale.ROOT);
    }
}
