package io.jrxe.wire.port;

/**
 * Why a packet was dropped: by a port before any engine saw it (the first three), or by the
 * NIC's receive checks. Carried as this enum on the hot path; its text is made only when a
 * capture records the drop as a packet comment.
 */
public enum DropReason {
    BAD_ICRC("bad ICRC"),
    TOO_SHORT("too short for a BTH and an ICRC"),
    NOT_ROCE("not RoCEv2"),

    MALFORMED("malformed"),
    UNKNOWN_OPCODE("unknown opcode"),
    UNKNOWN_QPN("unknown qpn"),
    BAD_PKEY("bad pkey"),
    BAD_QKEY("bad qkey"),
    WRONG_TRANSPORT("wrong transport"),
    QP_STATE("qp state"),
    PSN_OUT_OF_WINDOW("psn out of window"),
    GHOST_ACK("ghost ack"),
    NO_RESOURCES("no resources"),
    /** An RC or UC packet from an address that is not the QP's peer, or to one that is not its own (rxe's address check). */
    WRONG_ADDRESS("not from the QP's peer"),
    /** A datagram for QP 0xFFFFFF whose destination is no multicast group a QP of the device is attached to. */
    NO_MCAST_GROUP("no QP attached to the multicast group");

    private final String description;

    DropReason(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }
}
