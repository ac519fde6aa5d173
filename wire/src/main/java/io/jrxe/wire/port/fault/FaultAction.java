package io.jrxe.wire.port.fault;

/**
 * What a rule does to a packet it selects. {@link #word()} is how the grammar names it, and
 * {@link #counterWord()} the tail of the counters that count it ({@code jrxe_fault_tx_dropped}, ...).
 */
public enum FaultAction {
    /** The packet never leaves, or never reaches the NIC. */
    DROP("drop", "dropped"),
    /** The packet goes twice. */
    DUP("dup", "duplicated"),
    /** One bit flips after the ICRC was computed, so the receiving port drops the packet as corrupt. */
    CORRUPT("corrupt", "corrupted"),
    /** The packet is held for a time, so that later ones pass it. */
    DELAY("delay", "delayed"),
    /** Bytes are cut off the end of the payload, and the ICRC is the shorter packet's. */
    TRUNCATE("truncate", "truncated"),
    /** An ACK becomes an RNR NAK with a timer value: the requester waits and sends again. */
    RNR("rnr", "rnr"),
    /**
     * A packet that arrives ECN-capable arrives marked CE, as from a switch whose queue is past its marking
     * threshold; one the port read as Not-ECT is left as it is (received packets only).
     */
    MARK("mark", "marked"),
    /** A rate's hold: the packet waits up to a bound, so that later ones pass it (not a rule's action). */
    REORDER("reorder", "reordered");

    private final String word;
    private final String counterWord;

    FaultAction(String word, String counterWord) {
        this.word = word;
        this.counterWord = counterWord;
    }

    public String word() {
        return word;
    }

    String counterWord() {
        return counterWord;
    }
}
