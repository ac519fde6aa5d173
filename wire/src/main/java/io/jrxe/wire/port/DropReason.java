package io.jrxe.wire.port;

/** Why a port dropped a packet before any engine saw it. */
public enum DropReason {
    BAD_ICRC("bad ICRC"),
    TOO_SHORT("too short for a BTH and an ICRC"),
    NOT_ROCE("not RoCEv2");

    private final String description;

    DropReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
