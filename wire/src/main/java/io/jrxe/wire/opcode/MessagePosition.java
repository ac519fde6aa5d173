package io.jrxe.wire.opcode;

/** Where a packet stands in its message: the opcode alone tells it. */
public enum MessagePosition {
    FIRST,
    MIDDLE,
    LAST,
    ONLY;

    /** True for the packet that starts a message (FIRST or ONLY). */
    public boolean starts() {
        return this == FIRST || this == ONLY;
    }

    /** True for the packet that ends a message (LAST or ONLY). */
    public boolean ends() {
        return this == LAST || this == ONLY;
    }
}
