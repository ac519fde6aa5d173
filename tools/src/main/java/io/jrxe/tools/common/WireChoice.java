package io.jrxe.tools.common;

import io.jrxe.tools.BadOption;

/** What a --wire option names: the host's UDP sockets, or the shared-memory rings of jrxe NICs on this host. */
public enum WireChoice {
    UDP("udp"),
    SHM("shm");

    private final String optionName;

    WireChoice(String optionName) {
        this.optionName = optionName;
    }

    public String optionName() {
        return optionName;
    }

    /** The wire {@code --wire value} names, UDP when the option is absent; a one-line error for any other word. */
    public static WireChoice of(String value) {
        if (value == null) {
            return UDP;
        }
        for (WireChoice w : values()) {
            if (w.optionName.equals(value)) {
                return w;
            }
        }
        throw new BadOption("--wire " + value + ": udp or shm");
    }
}
