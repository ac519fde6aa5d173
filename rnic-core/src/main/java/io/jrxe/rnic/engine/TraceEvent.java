package io.jrxe.rnic.engine;

import io.jrxe.rnic.cc.RateStep;
import io.jrxe.verbs.WcOpcode;
import io.jrxe.verbs.WcStatus;
import io.jrxe.verbs.WrOpcode;
import io.jrxe.wire.opcode.Opcode;
import io.jrxe.wire.port.DropReason;

/** The steps of a work request's trip through the NIC, for teaching views and tests. */
public enum TraceEvent {
    /** post_send wrote the work request into the send queue (emitted on the posting thread); opcode: a WrOpcode. */
    POSTED,
    /**
     * post_send rang the QP's doorbell (on the posting thread); value: the send queue's producer index (WQEs ever
     * posted), so the WQE just posted sits in slot (value - 1) mod depth.
     */
    DOORBELL,
    /** The QP's task started a turn on the NIC thread (after a doorbell, a response or a timer). */
    TASK_RUN,
    /** The requester reached the WQE; opcode: a WrOpcode, value: its length. */
    FETCHED,
    /** A packet's payload was gathered through the MTT; opcode: the packet's. */
    TRANSLATED,
    PACKET_SENT,
    PACKET_RECEIVED,
    /** value: the AETH syndrome. */
    ACK_RECEIVED,
    NAK_RECEIVED,
    /** The completer asked the requester to go back to psn; value: which retry. */
    RETRANSMIT,
    /** opcode: a WcOpcode, value: a WcStatus. */
    COMPLETED,
    /** The completion was written into its CQ; value: the CQ's ring index it went to, or -1 when the CQ was full. */
    CQE_WRITTEN,
    /** value: a DropReason. */
    DROPPED,
    /**
     * Congestion control changed the QP's sending rate (on the NIC thread, from a CNP or a timer); opcode: why, a
     * {@link RateStep} ordinal (CUT for a DCQCN CNP, RTT_HIGH for a TIMELY sample above T_high, ...), value: the rate now in bit/s.
     */
    RATE_CHANGED;

    /** The event's opcode argument by name: a work request's, a completion's or a packet's opcode. */
    public String opcodeName(int opcode) {
        if (opcode < 0) {
            return "-";
        }
        return switch (this) {
            case RATE_CHANGED -> opcode < RateStep.values().length ? RateStep.values()[opcode].name()
                    : "?" + opcode;
            case POSTED, FETCHED -> opcode < WrOpcode.values().length ? WrOpcode.values()[opcode].name() : "?" + opcode;
            case COMPLETED -> opcode < WcOpcode.values().length ? WcOpcode.values()[opcode].name() : "?" + opcode;
            default -> {
                Opcode op = Opcode.of(opcode);
                yield op == null ? String.format("0x%02x", opcode) : op.displayName();
            }
        };
    }

    /** The event's value argument by name where it names something (a status, a drop reason), else the number. */
    public String valueName(long value) {
        return switch (this) {
            case COMPLETED -> value >= 0 && value < WcStatus.values().length ? WcStatus.values()[(int) value].name() : "?" + value;
            case DROPPED -> value >= 0 && value < DropReason.values().length ? DropReason.values()[(int) value].name() : "?" + value;
            default -> Long.toString(value);
        };
    }
}
