package io.jrxe.wire.port.fault;

/** Where a fault is done to a packet: as the NIC sends it, or as it arrives, before the NIC sees it. */
public enum FaultDirection {
    SEND("send", "tx"),
    RECEIVE("recv", "rx");

    private final String word;
    private final String counterTag;

    FaultDirection(String word, String counterTag) {
        this.word = word;
        this.counterTag = counterTag;
    }

    /** The word of the grammar: send or recv. */
    public String word() {
        return word;
    }

    /** tx or rx, as the counters' names say it. */
    String counterTag() {
        return counterTag;
    }
}
