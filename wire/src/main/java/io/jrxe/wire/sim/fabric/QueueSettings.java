package io.jrxe.wire.sim.fabric;

/**
 * How a switch treats the packets it holds: the output queue's buffer, its ECN marking, and PFC on the links that
 * feed it (null: off, a full queue drops the packet that does not fit).
 */
public record QueueSettings(long bufferBytes, RedMarking marking, PfcThresholds pfc) {
    /** A sender's own queue: no limit, no marking (the NIC's packets wait for the link). */
    public static final QueueSettings HOST = new QueueSettings(Long.MAX_VALUE, RedMarking.OFF, null);

    public QueueSettings {
        if (bufferBytes <= 0) {
            throw new IllegalArgumentException("a queue's buffer must be above 0 bytes, not " + bufferBytes);
        }
        if (marking == null) {
            throw new IllegalArgumentException("a queue needs a marking (RedMarking.OFF for none)");
        }
    }
}
