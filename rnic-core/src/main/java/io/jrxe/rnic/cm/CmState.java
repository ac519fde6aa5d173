package io.jrxe.rnic.cm;

/**
 * The states of one communication, with IBTA's names (vol. 1, 12.9.6, the CM state diagrams).
 * The active side goes IDLE, REQ_SENT (MRA_REQ_RCVD while the peer asked for time), ESTABLISHED;
 * the passive side REQ_RCVD (MRA_REQ_SENT), REP_SENT (MRA_REP_RCVD), ESTABLISHED. Either leaves
 * ESTABLISHED through DREQ_SENT or DREQ_RCVD to TIMEWAIT, and a refused or timed-out attempt
 * waits in TIMEWAIT too, to answer late messages, before the communication ID is freed.
 */
public enum CmState {
    IDLE,
    REQ_SENT,
    REQ_RCVD,
    MRA_REQ_SENT,
    MRA_REQ_RCVD,
    REP_SENT,
    REP_RCVD,
    MRA_REP_RCVD,
    ESTABLISHED,
    DREQ_SENT,
    DREQ_RCVD,
    TIMEWAIT,
    SIDR_REQ_SENT,
    /** Passive SIDR: the request waits for the consumer's answer. */
    SIDR_REQ_RCVD,
    /** The communication ID is freed: nothing more happens to it. */
    CLOSED;

    /** States in which the passive side waits for its consumer's accept or reject. */
    boolean awaitsConsumer() {
        return this == REQ_RCVD || this == MRA_REQ_SENT;
    }

    /** States in which the active side waits for the REP. */
    boolean awaitsReply() {
        return this == REQ_SENT || this == MRA_REQ_RCVD;
    }

    /** States in which the passive side waits for the RTU. */
    boolean awaitsRtu() {
        return this == REP_SENT || this == MRA_REP_RCVD;
    }
}
