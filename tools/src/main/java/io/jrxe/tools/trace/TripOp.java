package io.jrxe.tools.trace;

import io.jrxe.verbs.WrOpcode;

/** The operations `jrxe trace --op` follows, by their option name. */
enum TripOp {
    WRITE("write", WrOpcode.RDMA_WRITE),
    READ("read", WrOpcode.RDMA_READ),
    SEND("send", WrOpcode.SEND),
    ATOMIC("atomic", WrOpcode.ATOMIC_FETCH_AND_ADD);

    final String option;
    final WrOpcode opcode;

    TripOp(String option, WrOpcode opcode) {
        this.option = option;
        this.opcode = opcode;
    }

    /** The operation of an option value, or null. */
    static TripOp of(String option) {
        for (TripOp op : values()) {
            if (op.option.equals(option)) {
                return op;
            }
        }
        return null;
    }
}
